import AppFlipBase
import Foundation

/// A cookie's `Expires` date read the way RFC 6265 §5.1.1 tells a browser to: the value is cut into tokens at the
/// delimiters, and the first token that reads as a time, a day of the month, a month and a year gives each; any
/// other token is ignored. So `Wed, 21 Oct 2015 07:28:00 GMT`, `Wednesday, 21-Oct-15 07:28:00 GMT` and
/// `Wed Oct 21 07:28:00 2015` all read the same, as browsers read them.
enum CookieDate {
    /// The date, or nil when a part is missing or out of range (§5.1.1 step 6), or the date does not exist.
    static func parse(_ text: String) -> Date? {
        var time: (Int, Int, Int)?
        var dayOfMonth: Int?
        var month: Int?
        var year: Int?
        for token in tokens(Array(text.utf8)) {
            if time == nil, let found = hmsTime(token) {
                time = found
            } else if dayOfMonth == nil, let found = leadingDigits(token, 1...2) {
                dayOfMonth = found
            } else if month == nil, let found = monthNumber(token) {
                month = found
            } else if year == nil, let found = leadingDigits(token, 2...4) {
                year = found
            }
        }
        guard let (hour, minute, second) = time, let dayOfMonth, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard (1...31).contains(dayOfMonth), year >= 1601 else { return nil }
        return UTCTimestamp.date(year: year, month: month, day: dayOfMonth, hour: hour, minute: minute, second: second)
    }

    /// §5.1.1's delimiters: %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E.
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
    }

    private static func tokens(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(whereSeparator: isDelimiter)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// `count` digits at `index` not followed by another digit, and the index after them.
    private static func digits(_ token: ArraySlice<UInt8>, from index: Int, _ count: ClosedRange<Int>) -> (Int, Int)? {
        var end = index
        var value = 0
        while end < token.endIndex, isDigit(token[end]) {
            value = value * 10 + Int(token[end] - UInt8(ascii: "0"))
            end += 1
            if end - index > count.upperBound { return nil }
        }
        return count.contains(end - index) ? (value, end) : nil
    }

    /// `1*2DIGIT ( non-digit *OCTET )` and its like: the token's leading digits.
    private static func leadingDigits(_ token: ArraySlice<UInt8>, _ count: ClosedRange<Int>) -> Int? {
        digits(token, from: token.startIndex, count)?.0
    }

    /// `hms-time`: `1*2DIGIT ":" 1*2DIGIT ":" 1*2DIGIT`, then anything after a non-digit.
    private static func hmsTime(_ token: ArraySlice<UInt8>) -> (Int, Int, Int)? {
        guard let (hour, afterHour) = digits(token, from: token.startIndex, 1...2), afterHour < token.endIndex,
            token[afterHour] == UInt8(ascii: ":"), let (minute, afterMinute) = digits(token, from: afterHour + 1, 1...2),
            afterMinute < token.endIndex, token[afterMinute] == UInt8(ascii: ":"),
            let (second, _) = digits(token, from: afterMinute + 1, 1...2)
        else { return nil }
        return (hour, minute, second)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"].map { Array($0.utf8) }

    /// The month a token's first three letters name, in any case.
    private static func monthNumber(_ token: ArraySlice<UInt8>) -> Int? {
        guard token.count >= 3 else { return nil }
        let prefix = token.prefix(3).map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }
        return months.firstIndex(of: prefix).map { $0 + 1 }
    }
}
