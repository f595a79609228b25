/// A URL's delimiters (`?`, `#`, `&`, `=`) are octets (RFC 3986 §2.2), so they are found on UTF-8 bytes, not as
/// Characters: a combining mark written after a delimiter would make one grapheme of the two and hide the delimiter
/// from a Character comparison, and the byte search is also what keeps splitting links off the per-case cost.
extension StringProtocol where SubSequence == Substring {
    /// The position of the first `byte` (an ASCII delimiter), or nil.
    package func firstIndex(ofByte byte: UInt8) -> Index? {
        utf8.firstIndex(of: byte)
    }

    /// The pieces between occurrences of the ASCII `separator`.
    package func pieces(separatedBy separator: UInt8, omittingEmpty: Bool) -> [Substring] {
        var result: [Substring] = []
        var start = startIndex
        while let found = self[start...].utf8.firstIndex(of: separator) {
            if !(omittingEmpty && found == start) { result.append(self[start..<found]) }
            start = utf8.index(after: found)
        }
        if !(omittingEmpty && start == endIndex) { result.append(self[start...]) }
        return result
    }
}
