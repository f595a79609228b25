import AppFlipBase
import Foundation

/// The check texts a run's results have in common, each kept once in memory and numbered. A check's expectation is
/// one of a few dozen sentences, said again in every case that makes the check, and many observations repeat as well
/// ("declined (opened nothing)"). A spooled result writes a kept text as its number (`SpooledTexts`), and every report
/// that reads it back gets the `String` kept here instead of decoding a copy of its bytes and freeing it again.
///
/// Bounded: at most `maxTexts` texts and `maxBytes` bytes in all, none longer than `longest` (a long observation, an
/// answer quoted whole, is rarely said twice), in a table of at most `maxSlots` slots. Once it is full, new texts are
/// written out in full, as before. Texts are told apart by their bytes (two spellings of é are two texts). They are
/// found by a hash of those bytes in an open-addressed table (triangular probing), never more than half full; a
/// search looks at `maxProbes` slots at most, then the table doubles, up to its limit, and past that the text is not
/// kept: a target whose observations collide costs a few comparisons a text, never a long search.
struct SharedTexts {
    /// The texts kept, by number.
    private(set) var texts: [String] = []
    /// Each kept text's hash, by number.
    private var hashes: [UInt64] = []
    /// The table: a text's number plus one, or 0 for an empty slot.
    private(set) var slots = [UInt32](repeating: 0, count: 1 << 10)
    private var bytes = 0

    static let maxTexts = 1 << 13
    static let maxBytes = 1 << 20
    static let longest = 1 << 10
    static let maxSlots = maxTexts * 4
    static let maxProbes = 16

    /// The number of `text`, kept now if it is new and there is room for it; nil when it is not kept.
    mutating func number(of text: String) -> UInt32? {
        let found = text.utf8.withContiguousStorageIfAvailable { utf8 -> UInt32? in
            guard utf8.count <= Self.longest else { return nil }
            return number(of: UnsafeRawBufferPointer(utf8), text: text)
        }
        return found ?? nil
    }

    private mutating func number(of utf8: UnsafeRawBufferPointer, text: String) -> UInt32? {
        let hash = Self.hash(utf8)
        while true {
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: hash) & mask
            for probe in 1...Self.maxProbes {
                let entry = slots[slot]
                guard entry != 0 else { return keep(text, count: utf8.count, hash: hash, at: slot) }
                let number = Int(entry - 1)
                if hashes[number] == hash, Self.equal(texts[number], utf8) { return UInt32(number) }
                slot = (slot + probe) & mask
            }
            guard slots.count < Self.maxSlots else { return nil }
            grow()
        }
    }

    /// Keeps `text` in the empty `slot`, when there is room; its number.
    private mutating func keep(_ text: String, count: Int, hash: UInt64, at slot: Int) -> UInt32? {
        guard texts.count < Self.maxTexts, bytes + count <= Self.maxBytes else { return nil }
        let number = UInt32(texts.count)
        texts.append(text)
        hashes.append(hash)
        bytes += count
        slots[slot] = number + 1
        if texts.count * 2 > slots.count { grow() }
        return number
    }

    /// Doubles the table, every kept text in its slot again (triangular probing in a table of a power of two slots
    /// visits every slot, and the table is never full).
    private mutating func grow() {
        var larger = [UInt32](repeating: 0, count: slots.count * 2)
        let mask = larger.count - 1
        for (number, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            var probe = 1
            while larger[slot] != 0 {
                slot = (slot + probe) & mask
                probe += 1
            }
            larger[slot] = UInt32(number + 1)
        }
        slots = larger
    }

    private static func equal(_ text: String, _ utf8: UnsafeRawBufferPointer) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { kept in
            guard kept.count == utf8.count else { return false }
            guard let left = kept.baseAddress, let right = utf8.baseAddress else { return true }
            return memcmp(left, right, kept.count) == 0
        } ?? false
    }

    /// A hash of `bytes`, eight at a time, each bit of it depending on every byte (MurmurHash3's 64-bit finalizer
    /// after each word and at the end), so that the low bits that choose a slot differ between texts that differ
    /// anywhere.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash = UInt64(bytes.count)
        var offset = 0
        if let base = bytes.baseAddress {
            while bytes.count - offset >= 8 {
                hash = mix(hash ^ ByteWords.word(base, at: offset))
                offset += 8
            }
        }
        var tail: UInt64 = 0
        for index in offset..<bytes.count { tail |= UInt64(bytes[index]) << UInt64(8 * (index - offset)) }
        return mix(hash ^ tail ^ 0x9E37_79B9_7F4A_7C15)
    }

    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        var value = (value ^ value >> 33) &* 0xFF51_AFD7_ED55_8CCD
        value = (value ^ value >> 33) &* 0xC4CE_B9FE_1A85_EC53
        return value ^ value >> 33
    }
}
