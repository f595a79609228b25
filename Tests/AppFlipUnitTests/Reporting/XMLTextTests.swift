import AppFlipBase
import AppFlipReporting
import AppFlipTestSupport
import Testing

@Suite("XML escaping")
struct XMLTextTests {
    @Test("Plain text comes back as it is; markup is escaped; tabs and line breaks stay in text")
    func text() {
        #expect(
            XMLText.text("AF-LINK-005 MUST NOT: expected declines; observed opened") == "AF-LINK-005 MUST NOT: expected declines; observed opened")
        #expect(XMLText.text("a & b < c > d \"q\"\tx\ny") == "a &amp; b &lt; c &gt; d \"q\"\tx\ny")
        #expect(XMLText.text("cr\r") == "cr&#13;")
        #expect(XMLText.text("é 中 🔑 ｆ\u{F000}") == "é 中 🔑 ｆ\u{F000}")
    }

    @Test("Characters XML 1.0 forbids become U+FFFD, in text and attributes")
    func forbidden() {
        #expect(XMLText.text("a\u{1}b\u{0}c\u{1F}") == "a\u{FFFD}b\u{FFFD}c\u{FFFD}")
        #expect(XMLText.text("x\u{FFFE}y\u{FFFF}z") == "x\u{FFFD}y\u{FFFD}z")
        #expect(XMLText.attribute("\u{FFFF}") == "\u{FFFD}")
    }

    @Test("Attributes keep quotes, line breaks and tabs as references")
    func attribute() {
        #expect(XMLText.attribute("plain value") == "plain value")
        #expect(XMLText.attribute("say \"hi\"\n\tnow & <then>") == "say &quot;hi&quot;&#10;&#9;now &amp; &lt;then&gt;")
    }

    @Test("Runs copied whole escape as the byte-by-byte writer escaped, on 20,000 seeded texts, text and attribute")
    func oracle() {
        let pieces = [
            "a", "Z", " ", "&", "<", ">", "\"", "'", "\n", "\r", "\t", "\r\n", "\u{0}", "\u{1F}", "\u{7F}", "é", "中", "🔑",
            "\u{F000}", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "ｆ", "&amp;",
            // Runs longer than a word, so that words are skipped whole and escapes fall at every offset in one.
            "abcdefgh", "0123456789 ", "=?#[]`~",
        ]
        var random = Mutator(seed: 20_261_129)
        for _ in 0..<20_000 {
            let text = (0..<random.below(40)).map { _ in pieces[random.below(pieces.count)] }.joined()
            for attribute in [false, true] {
                let escaped = attribute ? XMLText.attribute(text) : XMLText.text(text)
                let expected = Self.byteByByte(text, attribute: attribute)
                // Appended to a report's buffer, after what it already holds.
                var buffer = ByteBuffer()
                buffer.append("<")
                XMLText.append(text, attribute: attribute, to: &buffer)
                let appended = buffer.array
                guard Array(escaped.utf8) == Array(expected.utf8), appended == Array(("<" + expected).utf8) else {
                    Issue.record(
                        "\(text.debugDescription), attribute \(attribute): \(escaped.debugDescription), the oracle \(expected.debugDescription)")
                    return
                }
            }
        }
    }

    /// The replaced writer: a byte at a time.
    static func byteByByte(_ value: String, attribute: Bool) -> String {
        let bytes = Array(value.utf8)
        var result: [UInt8] = []
        var index = 0
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case 0x26: result.append(contentsOf: "&amp;".utf8)
            case 0x3C: result.append(contentsOf: "&lt;".utf8)
            case 0x3E: result.append(contentsOf: "&gt;".utf8)
            case 0x22 where attribute: result.append(contentsOf: "&quot;".utf8)
            case 0x0A where attribute: result.append(contentsOf: "&#10;".utf8)
            case 0x0D: result.append(contentsOf: "&#13;".utf8)
            case 0x09 where attribute: result.append(contentsOf: "&#9;".utf8)
            case 0x09, 0x0A: result.append(byte)
            case 0x00..<0x20: result.append(contentsOf: replacement)
            case 0xEF where index + 1 < bytes.count && bytes[index] == 0xBF && (bytes[index + 1] == 0xBE || bytes[index + 1] == 0xBF):
                result.append(contentsOf: replacement)
                index += 2
            default: result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
