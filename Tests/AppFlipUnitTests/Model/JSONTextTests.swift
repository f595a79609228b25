import AppFlipBase
import AppFlipModel
import AppFlipTestSupport
import Foundation
import Testing

/// The request line is written without Foundation: it must be JSON any parser reads back to the same strings.
@Suite("JSON written directly")
struct JSONTextTests {
    static let awkward = [
        "", "plain", "quote \" and backslash \\", "slash / and \\/", "controls \u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1B}\u{1F}",
        "DEL \u{7F} C1 \u{85} LS \u{2028} PS \u{2029}", "é ü 中文 🔑", "https://app.example/flip?state=a%2Bb+c&x=%FF",
        String(repeating: "long ", count: 2000),
    ]

    @Test("Every string reads back exactly through JSONSerialization", arguments: awkward)
    func roundTrip(_ text: String) throws {
        let bytes = JSONText.object([("id", "case/1"), ("link", text), ("scenario", "consent")])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: String])
        #expect(parsed == ["id": "case/1", "link": text, "scenario": "consent"])
    }

    @Test("Output is what JSONSerialization writes (sorted keys, slashes unescaped) where both have one spelling")
    func sameBytes() throws {
        for text in Self.awkward where !text.unicodeScalars.contains(where: { $0.value < 0x20 }) {
            let ours = JSONText.object([("id", "i"), ("link", text), ("scenario", "deny")])
            let theirs = try JSONSerialization.data(
                withJSONObject: ["id": "i", "link": text, "scenario": "deny"],
                options: [.sortedKeys, .withoutEscapingSlashes])
            #expect(ours == [UInt8](theirs), "\(text.prefix(40))")
        }
    }

    /// The escaping as it was written before words were read eight bytes at a time: every byte looked at.
    static func oracle(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: output += "\\\""
            case 0x5C: output += "\\\\"
            case 0x08: output += "\\b"
            case 0x0C: output += "\\f"
            case 0x0A: output += "\\n"
            case 0x0D: output += "\\r"
            case 0x09: output += "\\t"
            case 0..<0x20: output += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }

    @Test("Escapes land where the byte-by-byte reading puts them, at every offset in a word, on 20,000 seeded strings")
    func againstOracle() {
        // Bytes next to the escaped ones (0x1F/0x20, 0x21/0x23, 0x5B/0x5D, 0x7F and high bytes) test the word tests' edges.
        let pieces = ["a", "\"", "\\", "\u{0}", "\u{1F}", " ", "!", "#", "[", "]", "\u{7F}", "é", "🔑", "\n", "abcdefgh", "\u{80}", "ÿ"]
        var random = Mutator(seed: 20_261_205)
        for _ in 0..<20_000 {
            let text = (0..<random.below(40)).map { _ in pieces[random.below(pieces.count)] }.joined()
            var output: [UInt8] = []
            JSONText.appendString(text, to: &output)
            guard String(decoding: output, as: UTF8.self) == Self.oracle(text) else {
                Issue.record("\(text.debugDescription): \(String(decoding: output, as: UTF8.self)), the oracle \(Self.oracle(text))")
                return
            }
        }
    }

    @Test("Control characters take the short escapes RFC 8259 names, the others \\u00XX; nothing else is escaped")
    func escapes() {
        var output: [UInt8] = []
        JSONText.appendString("\u{8}\u{C}\n\r\t\u{0}\u{1F}\"\\/\u{7F}", to: &output)
        #expect(String(decoding: output, as: UTF8.self) == #""\b\f\n\r\t\u0000\u001f\"\\/\#u{7F}""#)
    }
}
