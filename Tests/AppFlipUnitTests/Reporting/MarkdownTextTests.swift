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
        ]
        var random = Mutator(seed: 20_261_130)
        for _ in 0..<20_000 {
            let text = (0..<random.below(20)).map { _ in pieces[random.below(pieces.count)] }.joined()
            let limit = random.below(25)
            let (inline, expected) = (MarkdownText.inline(text, limit: limit), MarkdownText.characterInline(text, limit: limit))
            guard Array(inline.utf8) == Array(expected.utf8) else {
                Issue.record("\(text.debugDescription) limit \(limit): \(inline.debugDescription), the oracle \(expected.debugDescription)")
                return
            }
        }
    }
}
