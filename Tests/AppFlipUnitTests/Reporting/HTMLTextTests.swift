import AppFlipBase
import AppFlipTestSupport
import Testing

@testable import AppFlipReporting

/// `HTMLText.text` and `.href`, whose plain-text and ASCII paths read bytes, against their scalar readings (kept below).
@Suite("HTML text and links against their scalar readings")
struct HTMLTextTests {
    /// `text` as it reads every value it cannot pass as it is: scalar by scalar.
    static func scalarText(_ value: String) -> String {
        var result = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { continue }
                if TerminalText.isBidiControl(scalar) {
                    result += "&lt;U+" + String(scalar.value, radix: 16, uppercase: true) + "&gt;"
                    continue
                }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `href` as it read every URL: lower-cased whole, by characters and scalars.
    static func scalarHref(_ url: String) -> String? {
        if url.hasPrefix("#"), url.dropFirst().allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) { return url }
        guard url.lowercased().hasPrefix("https://"),
            !url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0 == "\"" || $0 == "<" || $0 == ">" || $0 == "\\" })
        else { return nil }
        return scalarText(url)
    }

    @Test("Text and links read as their scalar readings on 30,000 seeded values: Latin-1 signs, C1 controls, bidi controls")
    func againstScalarReadings() {
        let pieces = [
            "RFC 6749 ", "\u{A7}", "4.1.2", "\u{A0}", "\u{A9}", "\u{BF}", "\u{85}", "\u{9F}", "\u{80}", "\u{C0}", "\u{E9}", "\u{202E}",
            "\u{61C}", "\u{2014}", "&", "<", ">", "\"", "'", "\t", "\n", "\u{7F}", "\u{1}", "https://", "HTTPS://", "h", "/", "\\",
            " ", "#", "x", "\u{212A}", "\u{301}", "\r\n",
        ]
        var random = Mutator(seed: 0x4854_5854)
        for _ in 0..<30_000 {
            let value = (0..<random.below(7)).map { _ in pieces[random.below(pieces.count)] }.joined()
            guard HTMLText.text(value) == Self.scalarText(value), HTMLText.href(value) == Self.scalarHref(value) else {
                Issue.record("\(value.debugDescription): \(HTMLText.text(value).debugDescription), \(String(describing: HTMLText.href(value)))")
                return
            }
        }
        #expect(HTMLText.text("RFC 6749 \u{A7}4.1.2 \u{85}") == "RFC 6749 \u{A7}4.1.2 ")
    }

    @Test("Plain ASCII is printable ASCII without the five markup characters, and text() returns it as it is")
    func plainASCII() {
        let pieces = ["AF-LINK-010", " ", "~", "&", "<", ">", "\"", "'", "\t", "\u{7F}", "\u{1F}", "\u{E9}", "\u{212A}", "a", "Z", "-"]
        var random = Mutator(seed: 0x504C_4149)
        for _ in 0..<5_000 {
            let value = (0..<random.below(5)).map { _ in pieces[random.below(pieces.count)] }.joined()
            let expected = value.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) && !"&<>\"'".unicodeScalars.contains($0) }
            guard HTMLText.isPlainASCII(value) == expected, !expected || HTMLText.text(value) == value else {
                Issue.record("\(value.debugDescription): \(HTMLText.isPlainASCII(value)), expected \(expected)")
                return
            }
        }
    }
}
