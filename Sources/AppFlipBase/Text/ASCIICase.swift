/// ASCII letters compared without case, byte by byte: what the suite compares this way (HTML names, parameter names,
/// escapes, header names, schemes) is ASCII, and reading it this way lower-cases no copy. Everything else compares as
/// it is.
extension UInt8 {
    /// The byte with an ASCII capital letter made small; any other byte as it is.
    @inlinable package var asciiLowercased: UInt8 { (0x41...0x5A).contains(self) ? self | 0x20 : self }

    /// The value of an ASCII hexadecimal digit, either case (a percent escape's, a character reference's); nil for
    /// any other byte.
    @inlinable package var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension Sequence where Element == UInt8 {
    /// Whether these bytes start with `prefix` (lower-case ASCII), letters compared without case.
    @inlinable
    package func hasASCIIPrefixIgnoringCase(_ prefix: StaticString) -> Bool {
        var bytes = makeIterator()
        return UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount).allSatisfy { wanted in
            bytes.next().map { $0.asciiLowercased == wanted } ?? false
        }
    }
}

extension StringProtocol {
    /// Whether the two are the same but for the case of ASCII letters; any other byte compares as it is. HTTP field
    /// names compare this way (RFC 9110 §5.1: case-insensitive; they are tokens, ASCII).
    @inlinable
    package func equalsIgnoringASCIICase(_ other: some StringProtocol) -> Bool {
        utf8.count == other.utf8.count && utf8.elementsEqual(other.utf8) { $0.asciiLowercased == $1.asciiLowercased }
    }
}
