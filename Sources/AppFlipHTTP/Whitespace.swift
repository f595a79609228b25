extension StringProtocol {
    /// Without leading and trailing whitespace as Foundation's `.whitespaces` trims it (tab, the space separators and
    /// U+200B, measured on Foundation), read scalar by scalar without Foundation: cookie headers are read on every
    /// hop of a sign-in walk.
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, Self.isWhitespace(scalars[start]) { start = scalars.index(after: start) }
        while start < end, Self.isWhitespace(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        return String(self[start..<end])
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace, RFC 9110 §5.6.3), read as bytes.
    func trimmingSpacesAndTabs() -> String {
        let bytes = utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start = bytes.index(after: start) }
        while start < end, bytes[bytes.index(before: end)] == 0x20 || bytes[bytes.index(before: end)] == 0x09 { end = bytes.index(before: end) }
        return String(self[start..<end])
    }
}
