import AppFlipBase
import AppFlipTestSupport
import Foundation
import Testing

/// The report writers' byte buffer (`ByteBuffer`): whatever is appended, of whatever length and wherever it lands,
/// reads back as an array given the same appends holds it.
@Suite("Byte buffer")
struct ByteBufferTests {
    @Test("Pieces of every length up to 40 at every offset, bytes, literals and strings read back as an array's")
    func appends() {
        let source = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        var random = Mutator(seed: 2026_12_06)
        for round in 0..<50 {
            // A small first capacity, so that appends also land across each growth.
            var buffer = ByteBuffer(capacity: round % 3 == 0 ? 1 : 64)
            var oracle: [UInt8] = []
            for _ in 0..<200 {
                switch random.below(4) {
                case 0:
                    let byte = UInt8(truncatingIfNeeded: random.next())
                    buffer.append(byte)
                    oracle.append(byte)
                case 1:
                    let start = random.below(20)
                    let count = random.below(41)
                    source.withUnsafeBufferPointer { buffer.append(UnsafeBufferPointer(rebasing: $0[start..<(start + count)])) }
                    oracle += source[start..<(start + count)]
                case 2:
                    let literal: StaticString = round % 2 == 0 ? "\" : " : ",\n        "
                    buffer.append(literal)
                    oracle += Array(literal.description.utf8)
                default:
                    let text = String(repeating: "é", count: random.below(12)) + "x"
                    buffer.append(utf8: text)
                    oracle += Array(text.utf8)
                }
            }
            let (written, count) = (buffer.array, buffer.count)
            #expect(written == oracle)
            #expect(count == oracle.count)
            buffer.removeAll()
            let (isEmpty, emptied) = (buffer.isEmpty, buffer.array)
            #expect(isEmpty && emptied.isEmpty)
            buffer.append(0x41)
            let after = buffer.array
            #expect(after == [0x41])
        }
    }

    @Test("An empty piece appends nothing")
    func empty() {
        var buffer = ByteBuffer(capacity: 0)
        buffer.append(UnsafeBufferPointer(start: nil, count: 0))
        buffer.append(utf8: "")
        buffer.append("")
        let isEmpty = buffer.isEmpty
        #expect(isEmpty)
    }

    @Test("JSON strings written into the buffer or an array are the byte-by-byte escaper's, escapes at every offset")
    func jsonStrings() {
        var random = Mutator(seed: 65)
        let pieces = ["a", "\"", "\\", "\u{0}", "\u{1F}", "\u{8}", "\n", "é", "🔑", "abcdefgh", "/", " ", "\u{7F}", "!", "#", "[", "]", "\u{FF}"]
        for _ in 0..<5_000 {
            let text = (0..<random.below(30)).map { _ in pieces[random.below(pieces.count)] }.joined()
            var buffer = ByteBuffer()
            var array: [UInt8] = []
            JSONText.appendString(text, to: &buffer)
            JSONText.appendString(text, to: &array)
            let (expected, written) = (Self.jsonByteByByte(text), buffer.array)
            guard written == expected, array == expected else {
                Issue.record("\(text.debugDescription): \(String(decoding: written, as: UTF8.self))")
                return
            }
        }
    }

    /// RFC 8259 §7 a byte at a time: the escaper the word-at-a-time one must agree with.
    static func jsonByteByByte(_ text: String) -> [UInt8] {
        var output: [UInt8] = [0x22]
        for byte in text.utf8 {
            switch byte {
            case 0x22: output += Array(#"\""#.utf8)
            case 0x5C: output += Array(#"\\"#.utf8)
            case 0x08: output += Array(#"\b"#.utf8)
            case 0x0C: output += Array(#"\f"#.utf8)
            case 0x0A: output += Array(#"\n"#.utf8)
            case 0x0D: output += Array(#"\r"#.utf8)
            case 0x09: output += Array(#"\t"#.utf8)
            case 0..<0x20: output += Array(String(format: "\\u%04x", Int(byte)).utf8)
            default: output.append(byte)
            }
        }
        return output + [0x22]
    }
}
