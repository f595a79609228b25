import AppFlipBase
import AppFlipTestSupport
import Testing

@testable import AppFlipModel

/// How bytes are shown to a person in "observed" texts, and the byte-writing version against the scalar-appending
/// code it replaced, kept here as the oracle.
@Suite("ByteText")
struct ByteTextTests {
    @Test(
        "Text shows as is, quoted; controls, quotes and backslashes escaped",
        arguments: [
            (
                [UInt8]("https://oauth-redirect.googleusercontent.com/a/com.google.OPA".utf8),
                "\"https://oauth-redirect.googleusercontent.com/a/com.google.OPA\""
            ),
            ([0x0A, 0x0D, 0x09], "\"\\n\\r\\t\""),
            ([0x22, 0x5C], "\"\\\"\\\\\""),
            ([0x00, 0x1F, 0x7F, 0x41], "\"\\x00\\x1F\\x7FA\""),
            ([UInt8]("é✓😀".utf8), "\"é✓😀\""),
            ([], "\"\""),
        ])
    func shown(bytes: [UInt8], expected: String) {
        #expect(ByteText.display(bytes) == expected)
    }

    @Test(
        "Invalid UTF-8 shows as escapes, a byte at a time",
        arguments: [
            ([0xFF], "\"\\xFF\""),
            ([0xC0, 0x80], "\"\\xC0\\x80\""),  // overlong
            ([0xED, 0xA0, 0x80], "\"\\xED\\xA0\\x80\""),  // a surrogate
            ([0xE2, 0x9C], "\"\\xE2\\x9C\""),  // cut short
            ([0x80, 0x41], "\"\\x80A\""),  // a continuation byte alone
        ])
    func invalid(bytes: [UInt8], expected: String) {
        #expect(ByteText.display(bytes) == expected)
    }

    @Test("A long value is cut at the limit, a scalar cut in two shown as escapes, and its length said")
    func cut() {
        #expect(ByteText.display([UInt8]("abcdef".utf8), limit: 3) == "\"abc\"… (6 bytes)")
        #expect(ByteText.display([0x61] + [UInt8]("é".utf8), limit: 2) == "\"a\\xC3\"… (3 bytes)")
        #expect(ByteText.display("abc", limit: 3) == "\"abc\"")
    }

    @Test("The same text as the scalar-appending code, on 20,000 seeded byte strings")
    func oracle() {
        let pieces: [[UInt8]] = [
            [0x41], [0x7A], [0x20], [0x22], [0x5C], [0x0A], [0x0D], [0x09], [0x00], [0x7F], [0x80], [0xC0], [0xFF],
            Array("é".utf8), Array("✓".utf8), Array("😀".utf8), [0xE2, 0x9C], [0xF0, 0x9F], [0xED, 0xA0, 0x80],
        ]
        var random = Mutator(seed: 20_261_123)
        for _ in 0..<20_000 {
            let bytes = (0..<random.below(40)).flatMap { _ in pieces[random.below(pieces.count)] }
            let limit = 1 + random.below(60)
            let (shown, expected) = (ByteText.display(bytes, limit: limit), Self.scalarDisplay(bytes, limit: limit))
            guard shown == expected else {
                Issue.record("\(bytes) limit \(limit): \(shown.debugDescription), the oracle \(expected.debugDescription)")
                return
            }
        }
    }

    /// The replaced code: a String grown a scalar at a time.
    static func scalarDisplay(_ bytes: [UInt8], limit: Int) -> String {
        let shown = bytes.prefix(limit)
        var text = "\""
        var index = shown.startIndex
        func hex(_ byte: UInt8) -> String {
            let digits = Array("0123456789ABCDEF")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }
        while index < shown.endIndex {
            let byte = shown[index]
            if byte < 0x80 {
                switch byte {
                case 0x0A: text += "\\n"
                case 0x0D: text += "\\r"
                case 0x09: text += "\\t"
                case 0x22: text += "\\\""
                case 0x5C: text += "\\\\"
                case 0x00..<0x20, 0x7F: text += "\\x" + hex(byte)
                default: text.unicodeScalars.append(Unicode.Scalar(byte))
                }
                index += 1
                continue
            }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            if index + length <= shown.endIndex, let scalar = String(validating: shown[index..<(index + length)], as: UTF8.self) {
                text += scalar
                index += length
            } else {
                text += "\\x" + hex(byte)
                index += 1
            }
        }
        text += "\""
        if bytes.count > limit { text += "… (\(bytes.count) bytes)" }
        return text
    }
}
