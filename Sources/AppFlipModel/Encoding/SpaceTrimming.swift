import Foundation

extension StringProtocol where UTF8View: BidirectionalCollection {
    /// Without leading and trailing `.whitespaces` (tab and the Unicode space separators), exactly as Foundation's
    /// `trimmingCharacters(in: .whitespaces)`, which is asked only when an end could be one: text whose ends are
    /// other ASCII (header values, selectors, as nearly always) is copied as it is, without Foundation.
    package func trimmingSpaces() -> String {
        guard let first = utf8.first, let last = utf8.last, first < 0x80, last < 0x80, first != 0x20, first != 0x09,
            last != 0x20, last != 0x09
        else { return trimmingCharacters(in: .whitespaces) }
        return String(self)
    }
}
