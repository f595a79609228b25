import AppFlipBase

/// The byte strings that give a secret away: its own bytes, and its bytes (and its form encoding's) in hex and in
/// base64. Escapes (percent, JSON, HTML) are not listed: `EscapedText` decodes them out of the text instead, so they
/// are found in any mixture.
///
/// Base64 writes six bits a character, so a secret inside a longer encoded string starts at one of three alignments;
/// for each, the characters made of the secret's bits alone are a needle (standard and URL alphabets). Hex is looked
/// for in either case.
struct SecretNeedles {
    struct Needle: Sendable {
        var bytes: [UInt8]
        /// Compared without ASCII case (hex): `bytes` is lower-case.
        var foldsCase = false
        /// Base64 characters: the ones beside a match carry bits of the secret too.
        var isBase64 = false
    }

    /// A secret shorter than this is looked for by name only (`code=…`): its bytes would match ordinary text.
    static let shortest = 4

    let needles: [Needle]

    init(secret bytes: [UInt8]) {
        var needles = [Needle(bytes: bytes)]
        var encodings = [bytes]
        // A value of unreserved characters alone (most codes and tokens) is its own form encoding.
        if !bytes.allSatisfy(FormEncoding.isUnreserved) { encodings.append(Array(FormEncoding.encode(bytes).utf8)) }
        for encoding in encodings {
            needles.append(Needle(bytes: Self.hex(encoding), foldsCase: true))
            for alignment in 0..<3 {
                let core = Self.base64Core(of: encoding, alignment: alignment)
                guard core.count >= Self.shortest else { continue }
                needles.append(Needle(bytes: core, isBase64: true))
                let urlSafe = core.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: "-") : $0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0 }
                if urlSafe != core { needles.append(Needle(bytes: urlSafe, isBase64: true)) }
            }
        }
        self.needles = needles
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func hex(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(2 * bytes.count)
        for byte in bytes {
            result.append(hexDigits[Int(byte >> 4)])
            result.append(hexDigits[Int(byte & 0x0F)])
        }
        return result
    }

    /// The base64 characters (standard alphabet) that only `bytes` decide when they follow `alignment` other bytes
    /// (0, 1 or 2) in the encoded data: whatever comes before or after them, these characters are the same.
    static func base64Core(of bytes: [UInt8], alignment: Int) -> [UInt8] {
        let first = (8 * alignment + 5) / 6
        let last = 8 * (alignment + bytes.count) / 6  // exclusive
        guard last > first else { return [] }
        // Encoded after `alignment` zero bytes: character `position` is bits 6·position to 6·position + 5 of that
        // stream, read from the two bytes they fall in. Every fresh code a case sees is encoded so: the alphabet read
        // once, the bytes read in place, nothing but the characters wanted computed.
        var encoded: [UInt8] = []
        encoded.reserveCapacity(last - first)
        Self.alphabet.withUnsafeBufferPointer { alphabet in
            bytes.withUnsafeBufferPointer { source in
                func byte(_ index: Int) -> UInt32 {
                    let offset = index - alignment
                    return offset >= 0 && offset < source.count ? UInt32(source[offset]) : 0
                }
                for position in first..<last {
                    let bit = 6 * position
                    let pair = byte(bit >> 3) << 8 | byte((bit >> 3) + 1)
                    encoded.append(alphabet[Int((pair >> UInt32(10 - (bit & 7))) & 0x3F)])
                }
            }
        }
        return encoded
    }
}
