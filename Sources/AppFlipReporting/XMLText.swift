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
    package static func append(_ value: String, attribute: Bool, to output: inout [UInt8]) {
        func write(_ bytes: UnsafeBufferPointer<UInt8>) {
            if let escaped = escape(bytes: bytes, attribute: attribute) { output += escaped } else { output.append(contentsOf: bytes) }
        }
        if value.utf8.withContiguousStorageIfAvailable(write) == nil { Array(value.utf8).withUnsafeBufferPointer(write) }
    }

    private static func escape(_ value: String, attribute: Bool) -> String {
        let escaped =
            value.utf8.withContiguousStorageIfAvailable { escape(bytes: $0, attribute: attribute) }
            ?? Array(value.utf8).withUnsafeBufferPointer { escape(bytes: $0, attribute: attribute) }
        // Most values need nothing: they come back as they are, without a copy.
        return escaped.map { String(decoding: $0, as: UTF8.self) } ?? value
    }

    /// The escaped bytes, or nil when nothing needs escaping. Runs of plain bytes are copied whole (every report
    /// line of every case passes through here).
    private static func escape(bytes: UnsafeBufferPointer<UInt8>, attribute: Bool) -> [UInt8]? {
        var result: [UInt8]?
        var (index, plainFrom) = (0, 0)
        let raw = bytes.baseAddress.map(UnsafeRawPointer.init)
        var plainUntil = 0
        while index < bytes.count {
            // Eight bytes at a time while every one is printable ASCII other than `& < > "`: none of them is escaped
            // or replaced. A word where one may be is read byte by byte.
            if index >= plainUntil, let raw {
                while bytes.count - index >= 8, !mayNeedEscape(ByteWords.word(raw, at: index)) { index += 8 }
                plainUntil = index + 8
                guard index < bytes.count else { break }
            }
            let byte = bytes[index]
            if byte == 0xE2 || byte == 0xD8, let control = BidiControls.control(at: index, in: bytes) {
                // Named, never written: a JUnit viewer would reorder the text around it.
                if result == nil {
                    result = [UInt8]()
                    result?.reserveCapacity(bytes.count + 16)
                }
                result?.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainFrom..<index]))
                result?.append(contentsOf: ("&lt;U+" + String(control.scalar, radix: 16, uppercase: true) + "&gt;").utf8)
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
            if result == nil {
                result = [UInt8]()
                result?.reserveCapacity(bytes.count + 16)
            }
            result?.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainFrom..<index]))
            result?.append(contentsOf: UnsafeBufferPointer(start: piece.utf8Start, count: piece.utf8CodeUnitCount))
            index += width
            plainFrom = index
        }
        result?.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainFrom...]))
        return result
    }

    /// Whether some byte of `word` is a control, `& < > "` or not ASCII (a bidirectional control, U+FFFE or U+FFFF
    /// starts with such a byte).
    @inline(__always)
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        ByteWords.hasHighByte(word) || ByteWords.hasByte(below: 0x20, in: word) || ByteWords.hasByte(0x26, in: word)
            || ByteWords.hasByte(0x3C, in: word) || ByteWords.hasByte(0x3E, in: word) || ByteWords.hasByte(0x22, in: word)
    }

    /// U+FFFD, in place of a character XML 1.0 forbids.
    private static let replacement: StaticString = "\u{FFFD}"
}
