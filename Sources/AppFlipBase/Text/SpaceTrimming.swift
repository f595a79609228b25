extension StringProtocol where UTF8View: BidirectionalCollection {
    /// Without leading and trailing spaces as Foundation's `.whitespaces` trims them on Linux (tab, the Unicode space
    /// separators and U+200B, measured there), read without Foundation, so every platform trims alike. Text whose
    /// ends are other ASCII (header values, selectors, nearly always) is copied as it is; cookie headers and case
    /// values, read on every hop of a sign-in walk and every case, take this path.
    @inlinable
    package func trimmingSpaces() -> String {
        guard let first = utf8.first, let last = utf8.last, first < 0x80, last < 0x80, first != 0x20, first != 0x09,
            last != 0x20, last != 0x09
        else { return trimmingSpacesScalarByScalar() }
        return String(self)
    }

    @usableFromInline
    func trimmingSpacesScalarByScalar() -> String { trimmingScalars(where: isSpace) }

    /// Without leading and trailing spaces and line breaks as Foundation's `.whitespacesAndNewlines` trims them on Linux
    /// (`trimmingSpaces`' set, and U+000A to U+000D, U+0085, U+2028 and U+2029), read without Foundation: the catalog's
    /// statements and notes, a few hundred of them read at every start.
    @inlinable
    package func trimmingSpacesAndNewlines() -> String {
        guard let first = utf8.first, let last = utf8.last, first < 0x80, last < 0x80, !Self.isASCIISpaceOrNewline(first),
            !Self.isASCIISpaceOrNewline(last)
        else { return trimmingScalars { isSpace($0) || isNewline($0) } }
        return String(self)
    }

    @usableFromInline
    static func isASCIISpaceOrNewline(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    @usableFromInline
    func isNewline(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }

    @usableFromInline
    func trimmingScalars(where trimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, trimmed(scalars[start]) { start = scalars.index(after: start) }
        while start < end, trimmed(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        return String(self[start..<end])
    }

    @usableFromInline
    func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace, RFC 9110 §5.6.3), read as bytes.
    @inlinable
    package func trimmingSpacesAndTabs() -> String {
        let bytes = utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start = bytes.index(after: start) }
        while start < end, bytes[bytes.index(before: end)] == 0x20 || bytes[bytes.index(before: end)] == 0x09 { end = bytes.index(before: end) }
        return String(self[start..<end])
    }
}
