import AppFlipBase
import AppFlipModel
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

    @Test("Control characters take the short escapes RFC 8259 names, the others \\u00XX; nothing else is escaped")
    func escapes() {
        var output: [UInt8] = []
        JSONText.appendString("\u{8}\u{C}\n\r\t\u{0}\u{1F}\"\\/\u{7F}", to: &output)
        #expect(String(decoding: output, as: UTF8.self) == #""\b\f\n\r\t\u0000\u001f\"\\/\#u{7F}""#)
    }
}
