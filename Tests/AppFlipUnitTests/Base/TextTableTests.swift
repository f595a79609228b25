import AppFlipBase
import AppFlipTestSupport
import Testing

/// Texts kept once and numbered (`TextTable`): one number per byte sequence, never one for two, a search that never
/// adds, and every bound holds whatever texts a target makes the checks say.
@Suite("Text table")
struct TextTableTests {
    @Test("A text has one number, found again by its bytes; two texts never share one")
    func numbers() throws {
        var table = TextTable()
        var random = Mutator(seed: 65)
        var kept: [String: UInt32] = [:]
        for _ in 0..<5_000 {
            // Few enough distinct texts that most are met again; lengths across the eight-byte words.
            let length = random.below(40)
            let text = String(decoding: (0..<length).map { _ in UInt8(0x61 + random.below(3)) }, as: UTF8.self) + "\(random.below(50))"
            #expect(table.number(of: text) == kept[text], "a search finds what was kept, and adds nothing")
            let found = table.keep(text)
            let number = try #require(found)
            if let earlier = kept[text] { #expect(number == earlier, "\(text) was given another number") }
            kept[text] = number
            #expect(table.texts[Int(number)] == text)
        }
        #expect(Set(kept.values).count == kept.count, "two texts got one number")
        #expect(table.texts.count == kept.count)
    }

    @Test("Two spellings of one text (equal as Strings) are two texts")
    func spellings() throws {
        var table = TextTable()
        let numbers = (table.keep("\u{00E9}tat"), table.keep("e\u{0301}tat"))
        let composed = try #require(numbers.0)
        let decomposed = try #require(numbers.1)
        #expect(composed != decomposed)
        #expect(Array(table.texts[Int(decomposed)].utf8) == Array("e\u{0301}tat".utf8))
    }

    @Test("Bounded: no text longer than the limit, no more texts or bytes than the limits; kept ones are still found")
    func bounds() throws {
        var table = TextTable()
        #expect(table.keep(String(repeating: "x", count: TextTable.longest + 1)) == nil)
        #expect(table.keep(String(repeating: "x", count: TextTable.longest)) == 0)
        var count = 1
        while table.keep("text \(count)") != nil { count += 1 }
        #expect(count == TextTable.maxTexts, "texts kept until the limit")
        #expect(table.keep("text 7") == 7, "a kept text is found once full")
        #expect(table.keep("text \(count + 1)") == nil)

        var large = TextTable()
        let text = String(repeating: "y", count: TextTable.longest - 8)
        var bytes = 0
        while large.keep(text + "\(bytes)") != nil { bytes += text.utf8.count + "\(bytes)".utf8.count }
        #expect(bytes <= TextTable.maxBytes && bytes > TextTable.maxBytes - TextTable.longest, "bytes kept until the limit")
    }

    @Test("Texts whose hashes all start at one slot cost a bounded search and a bounded table: past them, not kept")
    func collisions() throws {
        // Texts of eight hexadecimal digits whose hashes agree in the bits that choose a slot of the largest table,
        // found by trying: they share one probe sequence at every size.
        let mask = UInt64(TextTable.maxSlots - 1)
        var colliding: [String] = []
        var digits = [UInt8](repeating: 0, count: 8)
        var candidate: UInt64 = 0
        var home: UInt64?
        while colliding.count <= TextTable.maxProbes {
            for index in 0..<8 { digits[index] = Array("0123456789abcdef".utf8)[Int(candidate >> UInt64(4 * index) & 0xF)] }
            let hash = digits.withUnsafeBytes { TextTable.hash($0) }
            if home == nil { home = hash & mask }
            if hash & mask == home { colliding.append(String(decoding: digits, as: UTF8.self)) }
            candidate += 1
        }
        var table = TextTable()
        for (index, text) in colliding.dropLast().enumerated() { #expect(table.keep(text) == UInt32(index)) }
        #expect(table.keep(colliding[TextTable.maxProbes]) == nil, "searched past the probe limit")
        #expect(table.slots.count == TextTable.maxSlots, "the table grew to its limit, no further")
        for (index, text) in colliding.dropLast().enumerated() { #expect(table.keep(text) == UInt32(index)) }
        #expect(table.keep("another text") == UInt32(TextTable.maxProbes), "other texts are still kept")
    }
}
