/// Eight bytes read as one word, and the bit tests that say whether any of them is of a kind, without looking at
/// them one by one: what the escapers (JSON, XML) skip plain text with. Each test is exact about "any": it never
/// says no where a byte is of the kind, nor yes where none is (the classic tests for a zero byte and a byte below n,
/// Hacker's Delight §6-1: a borrow only starts at a byte that is of the kind).
///
/// Inlinable, every one: the escapers of other modules call them for every eight bytes of every report.
public enum ByteWords {
    /// The eight bytes at `offset` of `base`, the first in the lowest bits (the byte order does not matter to the
    /// tests below).
    @inlinable @inline(__always)
    public static func word(_ base: UnsafeRawPointer, at offset: Int) -> UInt64 {
        base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }

    /// Whether a byte of `word` is below `limit` (at most 0x80).
    @inlinable @inline(__always)
    public static func hasByte(below limit: UInt8, in word: UInt64) -> Bool {
        (word &- 0x0101_0101_0101_0101 &* UInt64(limit)) & ~word & 0x8080_8080_8080_8080 != 0
    }

    /// Whether a byte of `word` is `byte`.
    @inlinable @inline(__always)
    public static func hasByte(_ byte: UInt8, in word: UInt64) -> Bool {
        let difference = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return (difference &- 0x0101_0101_0101_0101) & ~difference & 0x8080_8080_8080_8080 != 0
    }

    /// Whether a byte of `word` is 0x80 or above (not ASCII).
    @inlinable @inline(__always)
    public static func hasHighByte(_ word: UInt64) -> Bool { word & 0x8080_8080_8080_8080 != 0 }
}
