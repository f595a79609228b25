/// Substring search on UTF-8 bytes, for what the suite looks for in every case's evidence (credential markers,
/// secrets): a literal byte match, without Foundation's bridging or Unicode equivalence (a marker is found even
/// where a combining mark follows it, which for hiding credentials errs on the safe side).
extension StringProtocol {
    /// The first occurrence of `needle`'s bytes, or nil (an empty needle is found at the start).
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
        // A native string's bytes are contiguous; any other is searched through a copy.
        let offset = utf8.withContiguousStorageIfAvailable { search($0) } ?? search(Array(utf8))
        guard let offset else { return nil }
        let lower = utf8.index(utf8.startIndex, offsetBy: offset)
        return lower..<utf8.index(lower, offsetBy: wanted.count)
    }

    /// Whether `needle`'s bytes occur in the text.
    package func containsBytes(_ needle: String) -> Bool { byteRange(of: needle) != nil }
}
