import Foundation

/// Texts kept once and numbered, found again by their bytes: a run's texts that repeat. A check's expectation is one of
/// a few dozen sentences, said again in every case that makes the check, and many observations repeat as well
/// ("declined (opened nothing)"): the run's spool keeps its results' check texts here and writes a kept one as its
/// number, so a report that reads it back gets the kept `String` instead of decoding a copy (`SpooledTexts`); and
/// redaction remembers here the texts it found no credential in (`NamedCredentials`).
///
/// Bounded: at most `maxTexts` texts and `maxBytes` bytes in all, none longer than `longest` (a long observation, an
/// answer quoted whole, is rarely said twice), in a table of at most `maxSlots` slots. Once it is full, new texts are
/// not kept, and their callers do without. Texts are told apart by their bytes (two spellings of é are two texts).
/// They are found by a hash of those bytes in an open-addressed table (triangular probing), never more than half full;
/// a search looks at `maxProbes` slots at most, then the table doubles, up to its limit, and past that the text is not
/// kept: a target whose texts collide costs a few comparisons a text, never a long search.
package struct TextTable: Sendable {
    /// The texts kept, by number.
    package private(set) var texts: [String] = []
    /// Each kept text's hash, by number.
    private var hashes: [UInt64] = []
    /// The table: a text's number plus one, or 0 for an empty slot.
    package private(set) var slots = [UInt32](repeating: 0, count: 1 << 10)
    private var bytes = 0

    package static let maxTexts = 1 << 13
    package static let maxBytes = 1 << 20
    package static let longest = 1 << 10
    package static let maxSlots = maxTexts * 4
    package static let maxProbes = 16

    package init() {}

    /// The number of `text`, or nil when it is not kept.
    package func number(of text: String) -> UInt32? {
        let found = text.utf8.withContiguousStorageIfAvailable { utf8 -> UInt32? in
            guard utf8.count <= Self.longest else { return nil }
            if case .kept(let number) = search(UnsafeRawBufferPointer(utf8), hash: Self.hash(UnsafeRawBufferPointer(utf8))) { return number }
            return nil
        }
        return found ?? nil
    }

    /// The number of `text`, kept now if it is new and there is room for it; nil when it is not kept.
    package mutating func keep(_ text: String) -> UInt32? {
        let found = text.utf8.withContiguousStorageIfAvailable { utf8 -> UInt32? in
            guard utf8.count <= Self.longest else { return nil }
            return keep(UnsafeRawBufferPointer(utf8), text: text)
        }
        return found ?? nil
    }

    private mutating func keep(_ utf8: UnsafeRawBufferPointer, text: String) -> UInt32? {
        let hash = Self.hash(utf8)
        while true {
            switch search(utf8, hash: hash) {
            case .kept(let number): return number
            case .empty(let slot): return keep(text, count: utf8.count, hash: hash, at: slot)
            case .exhausted:
                guard slots.count < Self.maxSlots else { return nil }
                grow()
            }
        }
    }

    /// What a search for a text finds: it, the empty slot where it would go, or `maxProbes` slots of other texts.
    private enum Search {
        case kept(UInt32)
        case empty(Int)
        case exhausted
    }

    private func search(_ utf8: UnsafeRawBufferPointer, hash: UInt64) -> Search {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        for probe in 1...Self.maxProbes {
            let entry = slots[slot]
            guard entry != 0 else { return .empty(slot) }
            let number = Int(entry - 1)
            if hashes[number] == hash, Self.equal(texts[number], utf8) { return .kept(UInt32(number)) }
            slot = (slot + probe) & mask
        }
        return .exhausted
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

    /// A hash of `bytes`: a multiply and a shift a word of eight, the last word read where it ends (overlapping the
    /// one before), and MurmurHash3's 64-bit finalizer at the end, so that the low bits that choose a slot depend on
    /// every byte. Texts whose hashes agree are compared byte for byte: a collision costs a probe, never a wrong text.
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash = UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
        guard let base = bytes.baseAddress else { return mix(hash) }
        let count = bytes.count
        guard count >= 8 else {
            var tail: UInt64 = 0
            for index in 0..<count { tail |= UInt64(base.load(fromByteOffset: index, as: UInt8.self)) << UInt64(8 * index) }
            return mix(hash ^ tail)
        }
        var offset = 0
        while count - offset > 8 {
            hash = (hash ^ ByteWords.word(base, at: offset)) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 29
            offset += 8
        }
        return mix(hash ^ ByteWords.word(base, at: count - 8))
    }

    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        var value = (value ^ value >> 33) &* 0xFF51_AFD7_ED55_8CCD
        value = (value ^ value >> 33) &* 0xC4CE_B9FE_1A85_EC53
        return value ^ value >> 33
    }
}
