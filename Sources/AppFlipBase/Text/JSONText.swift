/// JSON written directly as UTF-8 bytes (RFC 8259), for what the suite writes once per case (the adapter contract's
/// request line): no Foundation on that path.
public enum JSONText {
    @usableFromInline static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `text` as a JSON string (RFC 8259 §7): `"` and `\` escaped, the control characters U+0000 to U+001F
    /// as `\b`, `\f`, `\n`, `\r`, `\t` or `\u00XX`, everything else as its own UTF-8 bytes (`/` included: escaping it
    /// is optional).
    @inlinable
    public static func appendString<Output: ByteAppending & ~Copyable>(_ text: String, to output: inout Output) {
        output.append(0x22)
        // A native string's bytes are read where they are (a small one's from the stack), never copied first.
        var text = text
        text.withUTF8 { appendEscaped($0, to: &output) }
        output.append(0x22)
    }

    /// `bytes` with JSON's escapes; runs of bytes that need none (nearly all of them) are copied whole.
    @inlinable
    static func appendEscaped<Output: ByteAppending & ~Copyable>(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout Output) {
        guard let base = bytes.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        var start = 0
        var index = 0
        while index < bytes.count {
            // Eight bytes at a time while none of them needs an escape (a control, `"` or `\`): a word's bit tests
            // say whether any byte does; a word where one may is read byte by byte.
            while bytes.count - index >= 8, !mayNeedEscape(ByteWords.word(raw, at: index)) {
                index += 8
            }
            let end = min(bytes.count, index + 8)
            while index < end {
                let byte = bytes[index]
                if byte < 0x20 || byte == 0x22 || byte == 0x5C {
                    if start < index { output.append(UnsafeBufferPointer(rebasing: bytes[start..<index])) }
                    appendEscape(byte, to: &output)
                    start = index + 1
                }
                index += 1
            }
        }
        if start < bytes.count { output.append(UnsafeBufferPointer(rebasing: bytes[start...])) }
    }

    /// Whether some byte of `word` is below 0x20, `"` or `\\`: the three exact tests of `ByteWords`, folded into one
    /// branch (a borrow starts only at a byte of the kind, Hacker's Delight §6-1).
    @inlinable @inline(__always)
    static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let found = ((word &- ones &* 0x20) & ~word) | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
        return found & (ones &* 0x80) != 0
    }

    @usableFromInline
    static func appendEscape<Output: ByteAppending & ~Copyable>(_ byte: UInt8, to output: inout Output) {
        output.append(0x5C)
        switch byte {
        case 0x22: output.append(0x22)
        case 0x5C: output.append(0x5C)
        case 0x08: output.append(0x62)
        case 0x0C: output.append(0x66)
        case 0x0A: output.append(0x6E)
        case 0x0D: output.append(0x72)
        case 0x09: output.append(0x74)
        default:
            for digit in [0x75, 0x30, 0x30, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]] { output.append(digit) }
        }
    }

    /// An object of string members, in the order given: `{"key":"value",…}`.
    package static func object(_ members: [(key: String, value: String)]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(members.reduce(2) { $0 + $1.key.utf8.count + $1.value.utf8.count + 6 })
        output.append(0x7B)
        for (index, member) in members.enumerated() {
            if index > 0 { output.append(0x2C) }
            appendString(member.key, to: &output)
            output.append(0x3A)
            appendString(member.value, to: &output)
        }
        output.append(0x7D)
        return output
    }
}
