/// Eight bytes read as one word, and the bit tests that say whether any of them is of a kind, without looking at
/// them one by one: what the escapers (JSON, XML) skip plain text with. Each test is exact about "any": it never
/// says no where a byte is of the kind (the classic tests for a zero byte and a byte below n, Hacker's Delight §6-1).
package enum ByteWords {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The eight bytes at `offset` of `base`, the first in the lowest bits (the byte order does not matter to the
    /// tests below).
    @inline(__always)
    package static func word(_ base: UnsafeRawPointer, at offset: Int) -> UInt64 {
        base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }

    /// Whether a byte of `word` is below `limit` (at most 0x80).
    @inline(__always)
    package static func hasByte(below limit: UInt8, in word: UInt64) -> Bool {
        (word &- ones &* UInt64(limit)) & ~word & highs != 0
    }

    /// Whether a byte of `word` is `byte`.
    @inline(__always)
    package static func hasByte(_ byte: UInt8, in word: UInt64) -> Bool {
        let difference = word ^ (ones &* UInt64(byte))
        return (difference &- ones) & ~difference & highs != 0
    }

    /// Whether a byte of `word` is 0x80 or above (not ASCII).
    @inline(__always)
    package static func hasHighByte(_ word: UInt64) -> Bool { word & highs != 0 }
}
