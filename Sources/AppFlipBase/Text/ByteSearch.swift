import Foundation

/// Finding bytes in text: a URL's delimiters (`?`, `#`, `&`, `=`) and the markers and secrets redaction looks for are
/// searched on UTF-8 bytes, not as Characters or through Foundation. A delimiter is an octet (RFC 3986 §2.2): a
/// combining mark written after one would make one grapheme of the two and hide it from a Character comparison, and
/// a marker is found even where such a mark follows it (for hiding credentials, the safe side). The byte search is
/// also what keeps splitting links and scrubbing evidence off the per-case cost.
extension StringProtocol {
    /// The first occurrence of `needle`'s bytes, or nil (an empty needle is found at the start).
    @inlinable
    package func byteRange(of needle: String) -> Range<Index>? {
        let wanted = Array(needle.utf8)
        guard let first = wanted.first else { return startIndex..<startIndex }
        func search<Bytes: RandomAccessCollection>(_ bytes: Bytes) -> Int? where Bytes.Element == UInt8, Bytes.Index == Int {
            var from = bytes.startIndex
            while bytes.endIndex - from >= wanted.count, let hit = bytes[from...].firstIndex(of: first) {
                guard bytes.endIndex - hit >= wanted.count else { return nil }
                if bytes[hit..<hit + wanted.count].elementsEqual(wanted) { return hit - bytes.startIndex }
                from = hit + 1
            }
            return nil
        }
        // A native string's bytes are contiguous, searched with the C library's memchr and memcmp (the redaction
        // of every piece of evidence looks for each marker); any other through a copy.
        let offset =
            utf8.withContiguousStorageIfAvailable { bytes -> Int? in
                guard let base = bytes.baseAddress else { return nil }
                return wanted.withUnsafeBufferPointer { needle -> Int? in
                    guard let needleBase = needle.baseAddress else { return nil }
                    var from = 0
                    while bytes.count - from >= needle.count, let hit = memchr(base + from, Int32(first), bytes.count - from) {
                        let at = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                        guard bytes.count - at >= needle.count else { return nil }
                        if memcmp(base + at, needleBase, needle.count) == 0 { return at }
                        from = at + 1
                    }
                    return nil
                }
            } ?? search(Array(utf8))
        guard let offset else { return nil }
        let lower = utf8.index(utf8.startIndex, offsetBy: offset)
        return lower..<utf8.index(lower, offsetBy: wanted.count)
    }

    /// Whether `needle`'s bytes occur in the text.
    @inlinable
    package func containsBytes(_ needle: String) -> Bool { byteRange(of: needle) != nil }
}

extension StringProtocol where SubSequence == Substring {
    /// The position of the first `byte` (an ASCII delimiter), or nil.
    @inlinable
    package func firstIndex(ofByte byte: UInt8) -> Index? {
        // Every piece of every redacted query asks: memchr over the contiguous bytes, nothing allocated.
        let offset =
            utf8.withContiguousStorageIfAvailable { bytes -> Int? in
                guard let base = bytes.baseAddress, let hit = memchr(base, Int32(byte), bytes.count) else { return nil }
                return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
            } ?? byteOffsets(of: byte, first: true).first
        return offset.map { utf8.index(utf8.startIndex, offsetBy: $0) }
    }

    /// The pieces between occurrences of the ASCII `separator`.
    @inlinable
    package func pieces(separatedBy separator: UInt8, omittingEmpty: Bool) -> [Substring] {
        var result: [Substring] = []
        var start = startIndex
        for offset in byteOffsets(of: separator, first: false) {
            let found = utf8.index(utf8.startIndex, offsetBy: offset)
            if !(omittingEmpty && found == start) { result.append(self[start..<found]) }
            start = utf8.index(after: found)
        }
        if !(omittingEmpty && start == endIndex) { result.append(self[start...]) }
        return result
    }

    /// The offsets of `byte` in the text's UTF-8 (only the first when `first`), read from its contiguous bytes.
    @usableFromInline
    func byteOffsets(of byte: UInt8, first: Bool) -> [Int] {
        func scan<Bytes: Collection>(_ bytes: Bytes) -> [Int] where Bytes.Element == UInt8 {
            var offsets: [Int] = []
            for (offset, value) in bytes.enumerated() where value == byte {
                offsets.append(offset)
                if first { break }
            }
            return offsets
        }
        return utf8.withContiguousStorageIfAvailable { scan($0) } ?? scan(utf8)
    }
}
