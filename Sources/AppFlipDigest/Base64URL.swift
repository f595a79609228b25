/// base64url without padding (RFC 4648 §5), as PKCE (RFC 7636) uses it.
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    package static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var output: [UInt8] = []
        var accumulator = 0
        var bits = 0
        for byte in bytes {
            accumulator = (accumulator << 8) | Int(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                output.append(alphabet[(accumulator >> bits) & 0x3F])
            }
            accumulator &= (1 << bits) - 1
        }
        if bits > 0 { output.append(alphabet[(accumulator << (6 - bits)) & 0x3F]) }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes unpadded base64url; nil on any other character or an impossible length.
    package static func decode(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        var accumulator = 0
        var bits = 0
        for byte in text.utf8 {
            guard let value = alphabet.firstIndex(of: byte) else { return nil }
            accumulator = (accumulator << 6) | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8((accumulator >> bits) & 0xFF))
            }
            accumulator &= (1 << bits) - 1
        }
        return bits >= 6 ? nil : output
    }
}
