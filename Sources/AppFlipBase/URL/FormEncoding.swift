/// `application/x-www-form-urlencoded` encoding and decoding over bytes (RFC 6749 Appendix B).
package enum FormEncoding {
    /// Percent-encodes every byte except the unreserved set `A-Z a-z 0-9 - . _ ~`; hex digits upper-case.
    package static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        if let encoded = bytes.withContiguousStorageIfAvailable(encode(buffer:)) { return encoded }
        return Array(bytes).withUnsafeBufferPointer(encode(buffer:))
    }

    /// Written straight into the string's storage (every form field of a sign-in walk is encoded here): at most
    /// three bytes out for each byte in.
    private static func encode(buffer: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: buffer.count * 3) { output in
            var count = 0
            for byte in buffer {
                if isUnreserved(byte) {
                    output[count] = byte
                    count += 1
                } else {
                    output[count] = UInt8(ascii: "%")
                    output[count + 1] = hexDigit(byte >> 4)
                    output[count + 2] = hexDigit(byte & 0x0F)
                    count += 3
                }
            }
            return count
        }
    }

    /// An upper-case hex digit for a value below 16.
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") - 10 + value
    }

    package static func encode(_ text: String) -> String { encode(text.utf8) }

    /// `encode(_:)` of `text` appended to `output`: a form's pairs written into one body, no string made per pair.
    package static func append(encoding text: String, to output: inout ByteBuffer) {
        for byte in text.utf8 {
            if isUnreserved(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigit(byte >> 4))
                output.append(hexDigit(byte & 0x0F))
            }
        }
    }

    /// Decodes once: `+` is a space, `%HH` a byte (either hex case). Nil when a `%` is not followed by two hex digits.
    /// With `plusIsSpace: false`, `+` stays a plus: how `URLComponents.queryItems` reads a query (RFC 3986 only).
    package static func decode<Text: StringProtocol>(_ text: Text, plusIsSpace: Bool = true) -> [UInt8]? {
        if let decoded = text.utf8.withContiguousStorageIfAvailable({ decode(buffer: $0, plusIsSpace: plusIsSpace) }) { return decoded }
        return Array(text.utf8).withUnsafeBufferPointer { decode(buffer: $0, plusIsSpace: plusIsSpace) }
    }

    /// Written straight into the array's storage (every parameter of every judged URL is decoded here): at most one
    /// byte out for each byte in.
    static func decode(buffer: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool = true) -> [UInt8]? {
        var valid = true
        let decoded = [UInt8](unsafeUninitializedCapacity: buffer.count) { output, count in
            var (read, written) = (0, 0)
            while read < buffer.count {
                let byte = buffer[read]
                if byte == UInt8(ascii: "%") {
                    guard read + 2 < buffer.count, let high = buffer[read + 1].hexDigitValue, let low = buffer[read + 2].hexDigitValue else {
                        valid = false
                        break
                    }
                    output[written] = high << 4 | low
                    read += 3
                } else {
                    output[written] = byte == UInt8(ascii: "+") && plusIsSpace ? 0x20 : byte
                    read += 1
                }
                written += 1
            }
            count = written
        }
        return valid ? decoded : nil
    }

    @inlinable
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
