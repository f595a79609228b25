import AppFlipReporting
import AppFlipTestSupport
import Testing

/// Text put into a Markdown line: escaped so it cannot forge the report's structure, and the ASCII reading (bytes)
/// against the Character reading it shortcuts (which still reads every other text).
@Suite("Markdown inline text")
struct MarkdownTextTests {
    @Test(
        "Markup is escaped, line breaks become spaces, controls and bidirectional overrides are named",
        arguments: [
            ("declined (opened nothing)", "declined (opened nothing)"),
            ("a|b *c* _d_ [e](f) `g` #h !i ~j {k} \\l", "a\\|b \\*c\\* \\_d\\_ \\[e\\](f) \\`g\\` \\#h \\!i \\~j \\{k\\} \\\\l"),
            ("<script>&amp;", "&lt;script&gt;&amp;amp;"),
            // A character reference is escaped so it shows as written; a plain & (a URL's &state=) stays as it is.
            ("?code=x&state=y&#38;&#x26;&copy;&;&", "?code=x&state=y&amp;\\#38;&amp;\\#x26;&amp;copy;&;&"),
            ("one\r\ntwo\nthree\rfour\tfive", "one two three four five"),
            ("bell\u{7}del\u{7F}", "bellU+7delU+7F"),
            ("é\u{202E}x", "éU+202Ex"),
            // A mark with a combining mark after it is one Character, and Markdown still reads the mark: a pipe that
            // would open a table cell, a backtick, a tag's `<`.
            ("a|\u{301}b `\u{301}x` <\u{338}p>", "a\\|\u{301}b \\`\u{301}x\\` &lt;\u{338}p&gt;"),
        ])
    func escaped(text: String, expected: String) {
        #expect(MarkdownText.inline(text) == expected)
    }

    @Test("Cut at the limit in Characters (CR LF counts once)")
    func cut() {
        #expect(MarkdownText.inline("abcdef", limit: 3) == "abc… [truncated]")
        #expect(MarkdownText.inline("a\r\nb", limit: 3) == "a b")
        #expect(MarkdownText.inline("a\r\nb", limit: 2) == "a … [truncated]")
        #expect(MarkdownText.inline("abc", limit: 3) == "abc")
    }

    @Test("The same text as the Character reading, on 20,000 seeded texts and limits")
    func oracle() {
        let pieces = [
            "a", "Z", "0", " ", "\r", "\n", "\r\n", "\t", "\u{0}", "\u{1B}", "\u{7F}", "|", "*", "_", "`", "\\", "<", ">", "&", "#", ";",
            "!", "~", "{", "}", "[", "]", "(", ".", "é", "e\u{301}", "\u{202E}", "\u{85}", "🔑",
            // Combining marks alone (after whatever comes before), every bidirectional control, the C1 range's ends,
            // and the suite's own non-ASCII (a section sign, a placeholder, an ellipsis).
            "\u{301}", "\u{338}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{2066}", "\u{2069}", "\u{61C}", "\u{80}", "\u{9F}", "\u{A0}",
            "§", "‹redacted hmac:0a1b›", "…", "\u{200D}",
        ]
        var random = Mutator(seed: 20_261_130)
        for _ in 0..<20_000 {
            let text = (0..<random.below(24)).map { _ in pieces[random.below(pieces.count)] }.joined()
            let limit = random.below(4) == 0 ? 400 : random.below(25)
            let (inline, expected) = (MarkdownText.inline(text, limit: limit), MarkdownText.characterInline(text, limit: limit))
            guard Array(inline.utf8) == Array(expected.utf8) else {
                Issue.record("\(text.debugDescription) limit \(limit): \(inline.debugDescription), the oracle \(expected.debugDescription)")
                return
            }
        }
    }
}
