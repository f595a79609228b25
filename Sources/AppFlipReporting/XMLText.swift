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
        let bytes = Array(value.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 16)
        var index = 0
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
            // XML 1.0 `Char` is #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]: valid UTF-8 holds
            // no surrogates, so what is left to replace is the other controls, U+FFFE and U+FFFF.
            case 0x00..<0x20: result.append(contentsOf: replacement)
            case 0xEF where index + 1 < bytes.count && bytes[index] == 0xBF && (bytes[index + 1] == 0xBE || bytes[index + 1] == 0xBF):
                // U+FFFE and U+FFFF, the only characters from U+F000 on that XML 1.0 forbids.
                result.append(contentsOf: replacement)
                index += 2
            default: result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// U+FFFD, in place of a character XML 1.0 forbids.
    private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

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
}
