/// ASCII letters compared without case, byte by byte: schemes and header names are ASCII, and reading them this way
/// lower-cases no copy. Everything else compares as it is.
extension UInt8 {
    /// The byte with an ASCII capital letter made small.
    var asciiLowercased: UInt8 { (0x41...0x5A).contains(self) ? self | 0x20 : self }
}

extension Sequence where Element == UInt8 {
    /// Whether these bytes start with `prefix` (lower-case ASCII), letters compared without case.
    func hasASCIIPrefixIgnoringCase(_ prefix: StaticString) -> Bool {
        var bytes = makeIterator()
        return UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount).allSatisfy { wanted in
            bytes.next().map { $0.asciiLowercased == wanted } ?? false
        }
    }
}
