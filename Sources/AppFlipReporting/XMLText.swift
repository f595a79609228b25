/// Escaping for XML 1.0 text and attributes that no input can break out of.
package enum XMLText {
    /// Text content: markup characters escaped, characters XML 1.0 forbids replaced by U+FFFD.
    package static func text(_ value: String) -> String {
        escape(value, attribute: false)
    }

    /// An attribute value in double quotes; line breaks and tabs kept as character references.
    package static func attribute(_ value: String) -> String {
        escape(value, attribute: true)
    }

    private static func escape(_ value: String, attribute: Bool) -> String {
        // Most values need nothing: say so from their UTF-8 bytes, without building a copy.
        guard needsEscaping(value, attribute: attribute) else { return value }
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where attribute: result += "&quot;"
            case "\n" where attribute: result += "&#10;"
            case "\r": result += "&#13;"
            case "\t" where attribute: result += "&#9;"
            default:
                if isAllowed(scalar) { result.unicodeScalars.append(scalar) } else { result += "\u{FFFD}" }
            }
        }
        return result
    }

    /// Whether a byte of `value` is markup, a character an attribute keeps as a reference, a control XML 1.0 forbids,
    /// or may begin U+FFFE or U+FFFF (0xEF leads every character from U+F000 on: the careful path decides).
    private static func needsEscaping(_ value: String, attribute: Bool) -> Bool {
        for byte in value.utf8 {
            switch byte {
            case 0x26, 0x3C, 0x3E, 0x0D, 0xEF: return true
            case 0x22, 0x0A, 0x09: if attribute { return true }
            case 0x00..<0x20: return true
            default: continue
            }
        }
        return false
    }

    /// XML 1.0 `Char`: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
