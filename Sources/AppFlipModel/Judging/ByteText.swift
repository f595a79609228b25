/// Shows bytes to a person: UTF-8 text as is, control characters and invalid bytes as escapes, long values cut.
package enum ByteText {
    package static func display(_ bytes: [UInt8], limit: Int = 120) -> String {
        let shown = bytes.prefix(limit)
        var text = "\""
        var index = shown.startIndex
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

    package static func display(_ text: String, limit: Int = 120) -> String {
        display(Array(text.utf8), limit: limit)
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
