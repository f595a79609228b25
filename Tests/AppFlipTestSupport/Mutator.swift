/// A deterministic mutation fuzzer's input generator: the same seed gives the same inputs, on every machine.
package struct Mutator {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed &+ 0x9E37_79B9_7F4A_7C15
    }

    /// SplitMix64.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    package mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }

    /// Bytes that tend to matter to the parsers: structure, quotes, escapes, whitespace, invalid UTF-8, variables.
    static let interesting: [[UInt8]] = [
        [0x3A, 0x20], [0x2D, 0x20], [0x09], [0x0A], [0x0D, 0x0A], [0x0D], [0x20, 0x20], [0x22], [0x27], [0x5C], [0x7C], [0x3E],
        [0x5B], [0x5D], [0x7B], [0x7D], [0x23], [0x26], [0x2A], [0x21], [0x25], [0x25, 0x5A, 0x5A], [0x00], [0xFF], [0xC3],
        [0xEF, 0xBB, 0xBF], Array("${".utf8), Array("${row.".utf8), Array("${repeat:9999999:x}".utf8), Array("\\u".utf8),
        Array("one_of:".utf8), Array("table:".utf8), Array("\n  - ".utf8),
    ]

    /// One to four random edits of `input`.
    package mutating func mutate(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0..<(1 + below(4)) {
            let position = below(bytes.count + 1)
            switch below(7) {
            case 0 where !bytes.isEmpty:  // flip a byte
                bytes[min(position, bytes.count - 1)] ^= UInt8(truncatingIfNeeded: 1 << below(8))
            case 1:  // insert something interesting
                bytes.insert(contentsOf: Self.interesting[below(Self.interesting.count)], at: position)
            case 2 where !bytes.isEmpty:  // delete a run
                let end = min(bytes.count, position + 1 + below(16))
                bytes.removeSubrange(min(position, bytes.count - 1)..<end)
            case 3 where !bytes.isEmpty:  // duplicate a run
                let start = min(position, bytes.count - 1)
                let end = min(bytes.count, start + 1 + below(64))
                bytes.insert(contentsOf: bytes[start..<end], at: start)
            case 4:  // truncate
                bytes = Array(bytes.prefix(position))
            case 5:  // indent or unindent a line
                bytes.insert(0x20, at: position)
            default:  // insert a random byte
                bytes.insert(UInt8(truncatingIfNeeded: next()), at: position)
            }
        }
        return bytes
    }
}
