import AppFlipBase
import AppFlipModel

/// Escaping for Markdown so that text from a target can never forge report structure.
package enum MarkdownText {
    /// Text for a table cell or a line of prose: one line, table pipes and Markdown/HTML syntax escaped.
    package static func inline(_ value: String, limit: Int = 400) -> String {
        // Most text in a report is ASCII (observations, IDs, titles): read as bytes, where each is one Character but
        // for CR LF. Anything else takes the Character reading.
        if let ascii = value.utf8.withContiguousStorageIfAvailable({ asciiInline($0, limit: limit) }), let text = ascii { return text }
        return characterInline(value, limit: limit)
    }

    /// `inline` read Character by Character: for any text (and the reading the ASCII one is tested against).
    package static func characterInline(_ value: String, limit: Int) -> String {
        var result = ""
        var count = 0
        let characters = Array(value)
        for (position, character) in characters.enumerated() {
            if count >= limit {
                result += "… [truncated]"
                break
            }
            count += 1
            switch character {
            case "\n", "\r", "\r\n", "\t": result += " "
            case "&":
                result += startsEntity(characters[(position + 1)...].lazy.map { $0.asciiValue ?? 0 }) ? "&amp;" : "&"
            default:
                let scalars = character.unicodeScalars
                if let ascii = character.asciiValue, let escaped = escaped(ascii) {
                    result += escaped
                } else if let first = scalars.first, first.isASCII, scalars.count > 1, let escaped = escaped(UInt8(first.value)) {
                    // A mark with combining marks after it (`|` and U+0301) is one Character, but Markdown reads the
                    // mark: escaped as it would be alone, the marks after it kept.
                    result += escaped
                    for scalar in scalars.dropFirst() { result.unicodeScalars.append(scalar) }
                } else if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
                    scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) || isBidiControl(scalar)
                {
                    // Control and bidirectional-override characters are shown, not obeyed.
                    result += "U+" + String(scalar.value, radix: 16, uppercase: true)
                } else {
                    result.append(character)
                }
            }
        }
        return result
    }

    /// How an ASCII character Markdown or HTML would read is written (both readings ask here): a backslash before
    /// Markdown and table syntax, an entity for HTML's; nil for any other.
    private static func escaped(_ ascii: UInt8) -> String? {
        switch ascii {
        case UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "|"),
            UInt8(ascii: "#"), UInt8(ascii: "!"), UInt8(ascii: "~"), UInt8(ascii: "{"), UInt8(ascii: "}"):
            "\\" + String(UnicodeScalar(ascii))
        case UInt8(ascii: "<"): "&lt;"
        case UInt8(ascii: ">"): "&gt;"
        default: nil
        }
    }

    /// Whether what follows an `&` would make it a character reference (`&amp;`, `&#38;`, `&#x26;`: a name or number
    /// and a `;`), which must then be escaped so it shows as written; a plain `&` (a URL's `&state=`) stays as it is.
    static func startsEntity(_ following: some Sequence<UInt8>) -> Bool {
        var length = 0
        for byte in following {
            if byte == UInt8(ascii: ";") { return length > 0 }
            let isName =
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (byte == UInt8(ascii: "#") && length == 0)
            guard isName, length < 32 else { return false }
            length += 1
        }
        return false
    }

    /// `inline` read as bytes: for ASCII text, and for any text no longer in bytes than `limit` (never cut, so its
    /// Characters need not be counted); nil for other text, at its first byte outside ASCII. Outside ASCII, a C1
    /// control and a bidirectional control are named as the Character reading names them, and every other byte is
    /// copied: they are Characters of their own (Unicode's grapheme rules break around controls), and whatever else
    /// a Character holds is copied there too, its ASCII mark escaped as here.
    private static func asciiInline(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> String? {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 16)
        var (index, count) = (0, 0)
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x80 {
                guard bytes.count <= limit else { return nil }
                if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
                    result += ("U+" + String(bytes[index + 1], radix: 16, uppercase: true)).utf8
                    index += 2
                } else if let control = BidiControls.control(at: index, in: bytes) {
                    result += ("U+" + String(control.scalar, radix: 16, uppercase: true)).utf8
                    index += control.width
                } else {
                    result.append(byte)
                    index += 1
                }
                continue
            }
            if count >= limit {
                result += "… [truncated]".utf8
                break
            }
            count += 1
            index += 1
            switch byte {
            case UInt8(ascii: "\r") where index < bytes.count && bytes[index] == UInt8(ascii: "\n"):
                result.append(UInt8(ascii: " "))  // CR LF is one Character
                index += 1
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): result.append(UInt8(ascii: " "))
            case 0x00..<0x20, 0x7F: result += ("U+" + String(byte, radix: 16, uppercase: true)).utf8
            case UInt8(ascii: "&"):
                result += (startsEntity(bytes[index...]) ? "&amp;" : "&").utf8
            default:
                if let escaped = escaped(byte) { result += escaped.utf8 } else { result.append(byte) }
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// A fenced code block whose fence is longer than any backtick run inside, so content cannot close it.
    static func codeBlock(_ value: String) -> String {
        var longest = 0
        var run = 0
        for character in value {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: max(3, longest + 1))
        // Control characters become U+FFFD; bidirectional controls are named, so they cannot reorder what a
        // reviewer sees (the "Trojan Source" trick).
        var cleaned = ""
        for scalar in value.unicodeScalars {
            if (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) {
                cleaned += "\u{FFFD}"
            } else if isBidiControl(scalar) {
                cleaned += "<U+" + String(scalar.value, radix: 16, uppercase: true) + ">"
            } else {
                cleaned.unicodeScalars.append(scalar)
            }
        }
        return fence + "text\n" + cleaned + (cleaned.hasSuffix("\n") ? "" : "\n") + fence + "\n"
    }

    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool { TerminalText.isBidiControl(scalar) }
}
