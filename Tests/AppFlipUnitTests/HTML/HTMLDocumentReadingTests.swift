import AppFlipBase
import AppFlipTestSupport
import Testing

/// A page is read straight from the scanner, which never makes the attributes of tags the reading passes over or the
/// text it ignores. Its oracle is the same reading given every token made: on framework pages and thousands of
/// seeded mutations of them, with and without tight limits, both must give the same page.
@Suite("HTML page reading skips only what it ignores")
struct HTMLDocumentReadingTests {
    static let corpus: [String] = [
        HTMLDocumentTests.django, HTMLDocumentTests.rails, HTMLDocumentTests.spring, HTMLDocumentTests.express,
        """
        <html><head><meta name=Referrer content=no-referrer><meta http-equiv="REFRESH" content="0; url=/x">
        <title>T &amp; t</title><link rel=icon href=/favicon.ico><iframe src="/frame"></iframe></head><body>
        <form id=consent action="/decide?a=1&amp;b=2" method=post><label>Plan
        <select name=plan><option>  basic  plan </option><option value=pro selected>Pro</select></label>
        <textarea name=why>because &lt;reasons&gt;</textarea><input type=radio name=r value=1 checked>
        <button name=decision value=approve>  Allow
          access\r\n now </button><button type=reset>Reset</button><button disabled>Off</button>
        <input type=image name=go alt=" Go  on "><img src="/pixel.gif"><script src=/s.js>var a = "<b>";</script>
        </form><button>outside</button><p>caf\u{E9} <b>&nbsp;bold</b></p></body></html>
        """,
    ]

    static let pieces: [String] = [
        "<button>", "</button>", "<button name=b value=v>", "<option>", "<option value=o selected>", "</option>", "<select name=s>",
        "</select>", "<textarea name=t>", "</textarea>", "<form>", "<form id=f action=/a method=post>", "</form>", "<script>",
        "</script>", "<input name=i value=v>", "<input type=submit value=\"S  x\">", "<meta name=referrer content=origin>",
        "<p>", "</p>", "<b>", "text", " ", "\r\n", "\t", "&amp;", "&lt;", "\u{E9}", "<!-- c -->", "<title>", "</title>", "<",
        ">", "\"", "=",
    ]

    @Test("The same page as reading every token, on framework pages and 8,000 seeded mutations, with and without tight limits")
    func sameAsEveryToken() {
        var tight = HTMLScanner.Limits()
        tight.maximumBytes = 400
        tight.maximumTokens = 14
        tight.maximumAttributes = 2
        var random = Mutator(seed: 0x5245_4144)
        var inputs = Self.corpus.map { Array($0.utf8) }
        for index in 0..<8_000 {
            var bytes = inputs[index % Self.corpus.count]
            for _ in 0..<(1 + random.below(6)) {
                let position = random.below(bytes.count + 1)
                if random.below(4) == 0, !bytes.isEmpty {
                    bytes.removeSubrange(min(position, bytes.count - 1)..<min(bytes.count, position + 1 + random.below(12)))
                } else {
                    bytes.insert(contentsOf: Array(Self.pieces[random.below(Self.pieces.count)].utf8), at: position)
                }
            }
            inputs.append(index % 4 == 3 ? random.mutate(bytes) : bytes)
        }
        var disagreements: [String] = []
        for input in inputs {
            for limits in [HTMLScanner.Limits(), tight] {
                let read = HTMLDocument(input, limits: limits)
                let everyToken = HTMLDocument(tokens: HTMLScanner.tokens(input, limits: limits))
                if read != everyToken {
                    disagreements.append("\(String(decoding: input, as: UTF8.self))\n read: \(read)\n every token: \(everyToken)")
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements, the first: \(disagreements.prefix(2))")
    }

    /// HTML's "strip and collapse ASCII whitespace" on code points, the reading a label is compared with.
    static func collapsedScalars(_ text: String) -> String {
        text.unicodeScalars.split { "\t\n\u{0C}\r ".unicodeScalars.contains($0) }.map { String(String.UnicodeScalarView($0)) }
            .joined(separator: " ")
    }

    @Test("A label is its text with ASCII whitespace collapsed by code point, on 5,000 seeded texts")
    func labelsCollapseByCodePoint() throws {
        let pieces = [
            " ", "  ", "\t", "\n", "\r\n", "\r", "\u{0C}", " \u{301}", "\u{301}", "\u{A0}", "\u{2003}", "a", "Allow", "\u{E9}", "\u{1F600}",
        ]
        var random = Mutator(seed: 0x4C41_4245)
        for _ in 0..<5_000 {
            let text = (0..<random.below(8)).map { _ in pieces[random.below(pieces.count)] }.joined()
            let page = HTMLDocument(Array("<form><button>\(text)</button><input type=submit value=\"\(text)\"></form>".utf8))
            let buttons = try #require(page.forms.first?.submitButtons)
            try #require(buttons.count == 2)
            let expected = Self.collapsedScalars(text)
            if buttons[0].label != expected || buttons[1].label != expected {
                Issue.record("\(text.debugDescription): \(buttons.map(\.label.debugDescription)), expected \(expected.debugDescription)")
                return
            }
        }
        #expect(HTMLDocument(Array("<form><button>\r\nSign\r\n in\r\n</button></form>".utf8)).forms.first?.submitButtons.first?.label == "Sign in")
    }

    @Test("Field-name selectors pick the form the character split picks, on 3,000 seeded selectors")
    func selectorsSplitAsCharacters() {
        let page = HTMLDocument(
            Array(
                """
                <form id=a><input name=user><input name=pass></form><form id=b><input name="p\u{E9}"><input name=", x"></form>
                <form id=c><input name="user"><input name="\u{301}"><button name=go>Go</button></form>
                """.utf8))
        let pieces = ["user", "pass", "p\u{E9}", "go", ",", ", ", " ", "\t", "\u{301}", "x", "\u{A0}", ",\u{301}"]
        var random = Mutator(seed: 0x5345_4C45)
        for _ in 0..<3_000 {
            let selector = (0..<(1 + random.below(5))).map { _ in pieces[random.below(pieces.count)] }.joined()
            guard !selector.hasPrefix("#"), !selector.hasPrefix("action:") else { continue }
            let names = selector.split(separator: ",").map { $0.trimmingSpaces() }
            let expected = page.forms.first { form in names.allSatisfy(form.hasField) }
            guard page.form(matching: selector) == expected else {
                Issue.record(
                    "\(selector.debugDescription): \(String(describing: page.form(matching: selector)?.id)), expected \(String(describing: expected?.id))"
                )
                return
            }
        }
    }
}
