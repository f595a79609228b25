import AppFlipBase

/// Escaping for XML 1.0 text and attributes that no input can break out of, and whose bidirectional controls are
/// named (`<U+202E>`), never obeyed.
package enum XMLText {
    /// Text content: markup characters escaped, characters XML 1.0 forbids replaced by U+FFFD.
    package static func text(_ value: String) -> String {
        escape(value, attribute: false)
    }

    /// An attribute value in double quotes; line breaks and tabs kept as character references.
    package static func attribute(_ value: String) -> String {
        escape(value, attribute: true)
    }

    /// `value` escaped as `text` or `attribute` escapes it, appended to `output` (a report's buffer): nothing is made
    /// in between.
    package static func append<Output: ByteAppending & ~Copyable>(_ value: String, attribute: Bool, to output: inout Output) {
        var value = value
        value.withUTF8 { _ = escape(bytes: $0, attribute: attribute, into: &output) }
    }

    private static func escape(_ value: String, attribute: Bool) -> String {
        var value = value
        let escaped = value.withUTF8 { bytes -> String? in
            // Most values need nothing: they come back as they are, without a copy.
            guard mayNeedEscape(bytes) else { return nil }
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + 16)
            return escape(bytes: bytes, attribute: attribute, into: &output) ? String(decoding: output, as: UTF8.self) : nil
        }
        return escaped ?? value
    }

    /// Appends `bytes` escaped to `output`; whether anything was escaped or replaced. Runs of plain bytes are copied
    /// whole (every report line of every case passes through here).
    @discardableResult
    private static func escape<Output: ByteAppending & ~Copyable>(
        bytes: UnsafeBufferPointer<UInt8>, attribute: Bool, into output: inout Output
    ) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        var changed = false
        var (index, plainFrom, plainUntil) = (0, 0, 0)
        while index < bytes.count {
            // Eight bytes at a time while every one is printable ASCII other than `& < > "`: none of them is escaped
            // or replaced. A word where one may be is read byte by byte.
            if index >= plainUntil {
                while bytes.count - index >= 8, !mayNeedEscape(ByteWords.word(raw, at: index)) { index += 8 }
                plainUntil = index + 8
                guard index < bytes.count else { break }
            }
            let byte = bytes[index]
            if byte == 0xE2 || byte == 0xD8, let control = BidiControls.control(at: index, in: bytes) {
                // Named, never written: a JUnit viewer would reorder the text around it.
                output.append(UnsafeBufferPointer(rebasing: bytes[plainFrom..<index]))
                appendPiece("&lt;U+" + String(control.scalar, radix: 16, uppercase: true) + "&gt;", to: &output)
                changed = true
                index += control.width
                plainFrom = index
                continue
            }
            var width = 1
            let piece: StaticString
            switch byte {
            case 0x26: piece = "&amp;"
            case 0x3C: piece = "&lt;"
            case 0x3E: piece = "&gt;"
            case 0x22 where attribute: piece = "&quot;"
            case 0x0A where attribute: piece = "&#10;"
            case 0x0D: piece = "&#13;"
            case 0x09 where attribute: piece = "&#9;"
            // XML 1.0 `Char` is #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]: valid UTF-8 holds
            // no surrogates, so what is left to replace is the other controls, U+FFFE and U+FFFF.
            case 0x00..<0x20 where byte != 0x09 && byte != 0x0A: piece = replacement
            case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBF && (bytes[index + 2] == 0xBE || bytes[index + 2] == 0xBF):
                // U+FFFE and U+FFFF, the only characters from U+F000 on that XML 1.0 forbids.
                piece = replacement
                width = 3
            default:
                index += 1
                continue
            }
            output.append(UnsafeBufferPointer(rebasing: bytes[plainFrom..<index]))
            output.append(UnsafeBufferPointer(start: piece.utf8Start, count: piece.utf8CodeUnitCount))
            changed = true
            index += width
            plainFrom = index
        }
        output.append(UnsafeBufferPointer(rebasing: bytes[plainFrom...]))
        return changed
    }

    private static func appendPiece<Output: ByteAppending & ~Copyable>(_ piece: String, to output: inout Output) {
        var piece = piece
        piece.withUTF8 { output.append($0) }
    }

    /// Whether some byte of `bytes` may need escaping (`mayNeedEscape`, word by word, then the last few bytes).
    private static func mayNeedEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while bytes.count - index >= 8 {
            if mayNeedEscape(ByteWords.word(raw, at: index)) { return true }
            index += 8
        }
        return bytes[index...].contains { $0 < 0x20 || $0 >= 0x80 || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 }
    }

    /// Whether some byte of `word` is a control, `& < > "` or not ASCII (a bidirectional control, U+FFFE or U+FFFF
    /// starts with such a byte). Three exact tests for "any", folded into one branch: a byte outside 0x20...0x7F
    /// (subtracting 0x20 borrows from it, or its top bit is set); `"` or `&` (0x22 and 0x26, told apart only by bit
    /// 2: with it set, each is 0x26); `<` or `>` (0x3C and 0x3E, told apart only by bit 1: with it set, each is 0x3E).
    @inline(__always)
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let outside = (word &- ones &* 0x20) | word
        let quoteOrAmpersand = (word | ones &* 0x04) ^ (ones &* 0x26)
        let angle = (word | ones &* 0x02) ^ (ones &* 0x3E)
        // A zero byte of x sets the top bit of (x - 1) & ~x in that byte (Hacker's Delight §6-1).
        let zeros = ((quoteOrAmpersand &- ones) & ~quoteOrAmpersand) | ((angle &- ones) & ~angle)
        return (outside | zeros) & (ones &* 0x80) != 0
    }

    /// U+FFFD, in place of a character XML 1.0 forbids.
    private static let replacement: StaticString = "\u{FFFD}"
}
