/// The reference handler's own query parsing and encoding.
package enum QueryCodec {
    package struct Pair: Sendable {
        package var name: [UInt8]?
        package var value: [UInt8]?
    }

    /// The query of a link: after the first `?`, before the first `#`.
    package static func query(of link: String) -> Substring {
        let withoutFragment = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard let mark = withoutFragment.firstIndex(of: "?") else { return "" }
        return withoutFragment[withoutFragment.index(after: mark)...]
    }

    /// Splits and decodes a query; `plusIsSpace: false` reads it as `URLComponents.queryItems` does.
    package static func pairs(_ query: Substring, plusIsSpace: Bool = true) -> [Pair] {
        query.split(separator: "&").map { piece in
            let halves = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return Pair(
                name: decode(halves[0], plusIsSpace: plusIsSpace),
                value: halves.count > 1 ? decode(halves[1], plusIsSpace: plusIsSpace) : [])
        }
    }

    /// Form decoding: `+` is a space (unless `plusIsSpace` is false) and `%HH` a byte; nil on a malformed escape.
    package static func decode(_ text: Substring, plusIsSpace: Bool = true) -> [UInt8]? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            if byte == 0x2B {
                bytes.append(plusIsSpace ? 0x20 : byte)
            } else if byte == 0x25 {
                guard let high = utf8.next(), let low = utf8.next(),
                    let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return bytes
    }

    /// Percent-encodes everything but `A-Z a-z 0-9 - . _ ~`.
    package static func encode(_ bytes: [UInt8]) -> String {
        var text = ""
        for byte in bytes {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E:
                text.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                text += byte < 0x10 ? "%0" + hex : "%" + hex
            }
        }
        return text
    }

    /// RFC 6749 §3.3: `scope-token *( SP scope-token )`, scope-token = 1*( %x21 / %x23-5B / %x5D-7E ).
    package static func isValidScope(_ scope: [UInt8]) -> Bool {
        let tokens = scope.split(separator: 0x20, omittingEmptySubsequences: false)
        return tokens.allSatisfy { token in
            !token.isEmpty && token.allSatisfy { $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
        }
    }
}
