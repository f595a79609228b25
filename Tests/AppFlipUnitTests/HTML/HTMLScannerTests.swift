import AppFlipBase
import AppFlipModel
import AppFlipTestSupport
import Testing

/// The scanner reads pages as UTF-8 bytes. Its oracle is the scanner it replaced, which read them as Unicode
/// scalars (kept below, unchanged): on real pages, hostile markup and thousands of seeded mutations, both must give
/// the same tokens, also at the limits.
@Suite("HTML scanner on bytes")
struct HTMLScannerTests {
    static let corpus: [String] = [
        """
        <!doctype html><html><head><meta charset="utf-8"><title>Sign in &amp; link</title></head><body>
        <h1>Sign in to link your account with Google</h1>
        <form id="sign-in" method="post" action="/login">
        <input type="hidden" name="csrf" value="_pa13n2gC--F09IK4_RXGjQmjNC0ZKYg">
        <input type="hidden" name="return_to" value="/oauth/authorize?response_type=code&amp;client_id=google-client&amp;state=x6">
        <label>User <input type="text" name="username" autocomplete="username"></label>
        <button type="submit" name="decision" value="approve">Allow</button>
        </form></body></html>
        """,
        "<p>caf\u{E9} <b>gr\u{FC}n</b> &#x1F600; &#128512; &nbsp;&lt;&gt;&quot;&apos; &unknown; &amp</p>",
        "<SCRIPT>if (a < b && c > d) { x = '</scr' + 'ipt>'; }</SCRIPT><p>after</p>",
        "<script>never closed <b>",
        "<textarea>&lt;kept&gt; <i>raw</i></TEXTAREA ><style>p{}</style >",
        "<\u{E4}b c=1>umlaut name</\u{E4}b><\u{3A9}x>omega</\u{3A9}x><1a>digit</1a>< b>space</ b>",
        "<a\u{301}>mark</a><\u{301}x>lone mark</x><\u{212A}elvin>kelvin</\u{212A}elvin>",
        "<input value='single' data-x=unquoted disabled/><br/><img src=x alt=\"a > b\">",
        "<!-- comment <b>not a tag</b> --><?xml version=\"1.0\"?><!DOCTYPE x><p>t</p><!-- unterminated",
        "text only, no markup at all & an ampersand",
        "<p title=\"\u{1F600} &#x41;&#65;\">emoji</p><P CLASS=Upper>upper</P>",
        "<a href=\"/x?a=1&b=2\">link</a><a href=/y?c=3&amp;d=4>link</a>",
        "<div a=\"1\" a=\"2\" b c = \"3\" d= 'e' / >attrs</div>",
        "<title>T&amp;itle <b>not bold</b></title><p>x</p>",
        "< <<>> </> <!> <?> <a", "",
    ]

    static let pieces: [[UInt8]] = [
        Array("<".utf8), Array(">".utf8), Array("</".utf8), Array("/>".utf8), Array("=".utf8), Array("\"".utf8), Array("'".utf8),
        Array("&amp;".utf8), Array("&#x".utf8), Array("&#".utf8), Array(";".utf8), Array("<!--".utf8), Array("-->".utf8),
        Array("<script>".utf8), Array("</SCRIPT>".utf8), Array("<title>".utf8), Array("\u{E4}".utf8), Array("\u{301}".utf8),
        Array("\u{1F600}".utf8), [0xFF], [0xC3], [0xE2, 0x82], [0x0C], [0x09], [0x0A], Array(" ".utf8),
    ]

    static func describe(_ tokens: [HTMLScanner.Token]) -> String { "\(tokens)" }

    @Test("The same tokens as the scalar scanner, on a corpus and 6,000 seeded mutations of it, with and without tight limits")
    func sameAsScalarScanner() {
        var tight = HTMLScanner.Limits()
        tight.maximumBytes = 40
        tight.maximumTokens = 6
        tight.maximumAttributes = 1
        var inputs = Self.corpus.map { Array($0.utf8) }
        var mutator = Mutator(seed: 0x4854_4D4C)
        for index in 0..<6_000 {
            var bytes = Self.corpus.map { Array($0.utf8) }[index % Self.corpus.count]
            for _ in 0..<(1 + mutator.below(4)) {
                let position = mutator.below(bytes.count + 1)
                if mutator.below(3) == 0, !bytes.isEmpty {
                    bytes.removeSubrange(min(position, bytes.count - 1)..<min(bytes.count, position + 1 + mutator.below(8)))
                } else {
                    bytes.insert(contentsOf: Self.pieces[mutator.below(Self.pieces.count)], at: position)
                }
            }
            inputs.append(index % 2 == 0 ? bytes : mutator.mutate(bytes))
        }
        var disagreements: [String] = []
        for input in inputs {
            for limits in [HTMLScanner.Limits(), tight] {
                let bytes = Self.describe(HTMLScanner.tokens(input, limits: limits))
                let scalars = Self.describe(ScalarHTMLScanner.tokens(input, limits: limits))
                if bytes != scalars { disagreements.append("\(input)\n bytes:   \(bytes)\n scalars: \(scalars)") }
            }
        }
        #expect(disagreements.count == 0, "first disagreements: \(disagreements.prefix(3))")
    }

    /// Character references decoded as first written (on `Character`s), kept as the independent reading the byte
    /// decoder is compared with. They differ by design in one place: a combining mark right after the `;` makes one
    /// Character of the two, which hid the reference from this decoder; HTML reads code points, as the byte decoder does.
    static func characterDecode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            guard let semicolon = after.prefix(12).firstIndex(of: ";") else {
                result += "&"
                rest = after
                continue
            }
            let entity = after[..<semicolon]
            var replacement: String?
            switch entity {
            case "amp": replacement = "&"
            case "lt": replacement = "<"
            case "gt": replacement = ">"
            case "quot": replacement = "\""
            case "apos": replacement = "'"
            case "nbsp": replacement = "\u{A0}"
            default:
                if entity.hasPrefix("#x") || entity.hasPrefix("#X"), let value = UInt32(entity.dropFirst(2), radix: 16) {
                    replacement = Unicode.Scalar(value).map { String(Character($0)) }
                } else if entity.hasPrefix("#"), let value = UInt32(entity.dropFirst()) {
                    replacement = Unicode.Scalar(value).map { String(Character($0)) }
                }
            }
            if let replacement {
                result += replacement
                rest = after[after.index(after: semicolon)...]
            } else {
                result += "&"
                rest = after
            }
        }
        return result + rest
    }

    @Test("Character references decode as the Character decoder reads them, on 30,000 seeded texts")
    func entitiesAgreeWithCharacterDecoder() {
        let pieces = [
            "&", ";", "amp", "lt", "gt", "quot", "apos", "nbsp", "#", "x", "X", "41", "+65", "1F600", "D800", "110000", "é",
            "\u{301}", "\r\n", " ", "a", "&amp;", "&#x41;", "&#65;", "0123456789",
            "&#x1F600;", "&#128512;", "&#0000000065;", "&#00000000065;",
        ]
        var random = Mutator(seed: 2026)
        for _ in 0..<30_000 {
            let text = (0..<random.below(10)).map { _ in pieces[random.below(pieces.count)] }.joined()
            if text.unicodeScalars.indices.contains(where: { index in
                text.unicodeScalars[index] == ";" && text.unicodeScalars[text.unicodeScalars.index(after: index)...].first == "\u{301}"
            }) {
                continue
            }
            let decoded = HTMLScanner.decodeEntities(text)
            let expected = Self.characterDecode(text)
            if decoded != expected {
                Issue.record("\(text.debugDescription): \(decoded.debugDescription), the Character decoder \(expected.debugDescription)")
                return
            }
        }
        #expect(HTMLScanner.decodeEntities("&amp;\u{301}x") == "&\u{301}x")
        #expect(HTMLScanner.decodeEntities("&\u{301}amp;") == "&\u{301}amp;")
    }

    @Test("Tags, attributes, raw text and entities as a page means them")
    func tokensOfAPage() {
        let tokens = HTMLScanner.tokens(Array("<P Id=\"a&amp;b\">x &lt; y</p><SCRIPT>a</b></script>".utf8))
        #expect(
            Self.describe(tokens)
                == Self.describe([
                    .start(name: "p", attributes: [("id", "a&b")]), .text("x < y"), .end(name: "p"),
                    .start(name: "script", attributes: []), .text("a</b>"), .end(name: "script"),
                ]))
    }
}

/// The scanner as it was before it read bytes (Unicode scalars), kept as the oracle.
private enum ScalarHTMLScanner {
    typealias Token = HTMLScanner.Token
    static let rawTextElements: Set<String> = ["script", "style", "textarea", "title"]

    static func tokens(_ bytes: [UInt8], limits: HTMLScanner.Limits) -> [Token] {
        let text = Array(String(decoding: bytes.prefix(limits.maximumBytes), as: UTF8.self).unicodeScalars)
        var tokens: [Token] = []
        var index = 0
        var textStart = 0
        func flushText(upTo end: Int) {
            if end > textStart { tokens.append(.text(HTMLScanner.decodeEntities(String(String.UnicodeScalarView(text[textStart..<end]))))) }
        }
        while index < text.count, tokens.count < limits.maximumTokens {
            guard text[index] == "<" else {
                index += 1
                continue
            }
            if matches(text, index, "<!--") {
                flushText(upTo: index)
                index = find(text, "-->", from: index + 4).map { $0 + 3 } ?? text.count
                textStart = index
                continue
            }
            if matches(text, index, "<!") || matches(text, index, "<?") {
                flushText(upTo: index)
                index = find(text, ">", from: index + 2).map { $0 + 1 } ?? text.count
                textStart = index
                continue
            }
            let isEnd = index + 1 < text.count && text[index + 1] == "/"
            let nameStart = index + (isEnd ? 2 : 1)
            guard nameStart < text.count, text[nameStart].properties.isAlphabetic else {
                index += 1
                continue
            }
            flushText(upTo: index)
            var cursor = nameStart
            while cursor < text.count, !isSpace(text[cursor]), text[cursor] != ">", text[cursor] != "/" { cursor += 1 }
            let name = String(String.UnicodeScalarView(text[nameStart..<cursor])).lowercased()
            if isEnd {
                index = find(text, ">", from: cursor).map { $0 + 1 } ?? text.count
                tokens.append(.end(name: name))
                textStart = index
                continue
            }
            var attributes: [(name: String, value: String)] = []
            while cursor < text.count, text[cursor] != ">" {
                if isSpace(text[cursor]) || text[cursor] == "/" {
                    cursor += 1
                    continue
                }
                let attributeStart = cursor
                while cursor < text.count, !isSpace(text[cursor]), text[cursor] != "=", text[cursor] != ">", text[cursor] != "/" { cursor += 1 }
                let attributeName = String(String.UnicodeScalarView(text[attributeStart..<cursor])).lowercased()
                while cursor < text.count, isSpace(text[cursor]) { cursor += 1 }
                var value = ""
                if cursor < text.count, text[cursor] == "=" {
                    cursor += 1
                    while cursor < text.count, isSpace(text[cursor]) { cursor += 1 }
                    if cursor < text.count, text[cursor] == "\"" || text[cursor] == "'" {
                        let quote = text[cursor]
                        let valueStart = cursor + 1
                        cursor = valueStart
                        while cursor < text.count, text[cursor] != quote { cursor += 1 }
                        value = String(String.UnicodeScalarView(text[valueStart..<min(cursor, text.count)]))
                        if cursor < text.count { cursor += 1 }
                    } else {
                        let valueStart = cursor
                        while cursor < text.count, !isSpace(text[cursor]), text[cursor] != ">" { cursor += 1 }
                        value = String(String.UnicodeScalarView(text[valueStart..<cursor]))
                    }
                }
                if !attributeName.isEmpty, attributes.count < limits.maximumAttributes {
                    attributes.append((attributeName, HTMLScanner.decodeEntities(value)))
                }
            }
            index = min(cursor + 1, text.count)
            tokens.append(.start(name: name, attributes: attributes))
            textStart = index
            if rawTextElements.contains(name) {
                let end = findEndTag(text, name, from: index) ?? text.count
                if end > index {
                    let raw = String(String.UnicodeScalarView(text[index..<end]))
                    tokens.append(.text(name == "textarea" || name == "title" ? HTMLScanner.decodeEntities(raw) : raw))
                }
                index = end
                textStart = end
            }
        }
        if tokens.count < limits.maximumTokens { flushText(upTo: text.count) }
        return tokens
    }

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{0C}"
    }

    static func matches(_ text: [Unicode.Scalar], _ index: Int, _ literal: String) -> Bool {
        let needle = Array(literal.unicodeScalars)
        guard index + needle.count <= text.count else { return false }
        return (0..<needle.count).allSatisfy { text[index + $0] == needle[$0] }
    }

    static func find(_ text: [Unicode.Scalar], _ literal: String, from start: Int) -> Int? {
        var index = start
        while index < text.count {
            if matches(text, index, literal) { return index }
            index += 1
        }
        return nil
    }

    static func findEndTag(_ text: [Unicode.Scalar], _ name: String, from start: Int) -> Int? {
        var index = start
        let needle = Array(("</" + name).unicodeScalars)
        while index + needle.count <= text.count {
            if text[index] == "<", (0..<needle.count).allSatisfy({ String(text[index + $0]).lowercased() == String(needle[$0]) }) {
                return index
            }
            index += 1
        }
        return nil
    }
}
