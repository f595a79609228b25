/// Shows bytes to a person: UTF-8 text as is, control characters and invalid bytes as escapes, long values cut.
package enum ByteText {
    package static func display(_ bytes: [UInt8], limit: Int = 120) -> String {
        bytes.withUnsafeBufferPointer { display(buffer: $0, limit: limit) }
    }

    package static func display(_ text: String, limit: Int = 120) -> String {
        var text = text
        return text.withUTF8 { display(buffer: $0, limit: limit) }
    }

    /// `display` on the bytes where they are (a String's own, an array's), never copied first.
    private static func display(buffer bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> String {
        // Written as bytes and decoded once: every check's "observed" text goes through here, and appending a
        // scalar at a time to a String cost more than the rest of a typical check.
        let shown = UnsafeBufferPointer(rebasing: bytes.prefix(limit))
        var out: [UInt8] = [UInt8(ascii: "\"")]
        out.reserveCapacity(shown.count + 2)
        var index = 0
        while index < shown.count {
            let byte = shown[index]
            if byte < 0x80 {
                switch byte {
                case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case 0x22, 0x5C: out += [UInt8(ascii: "\\"), byte]
                case 0x00..<0x20, 0x7F: appendEscape(byte, to: &out)
                default: out.append(byte)
                }
                index += 1
                continue
            }
            // A scalar is copied only when its whole sequence is valid UTF-8 (not overlong, not a surrogate).
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            if index + length <= shown.count, String(validating: UnsafeBufferPointer(rebasing: shown[index..<(index + length)]), as: UTF8.self) != nil
            {
                out += shown[index..<(index + length)]
                index += length
            } else {
                appendEscape(byte, to: &out)
                index += 1
            }
        }
        out.append(UInt8(ascii: "\""))
        var text = String(decoding: out, as: UTF8.self)
        if bytes.count > limit { text += "… (\(bytes.count) bytes)" }
        return text
    }

    /// `\xHH`, upper-case hexadecimal digits.
    private static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
        let digits: StaticString = "0123456789ABCDEF"
        out += [UInt8(ascii: "\\"), UInt8(ascii: "x"), digits.utf8Start[Int(byte >> 4)], digits.utf8Start[Int(byte & 0x0F)]]
    }
}
