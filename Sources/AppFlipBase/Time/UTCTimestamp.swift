import Foundation

/// ISO 8601 timestamps in UTC, `2026-12-05T09:11:04Z` and `2026-12-05T09:11:04.123Z`, worked out from the date's
/// seconds since 1970 with the proleptic Gregorian calendar's day arithmetic. Foundation's `ISO8601DateFormatter` (and
/// on Linux its format styles) load ICU's locale data for the same text, some megabytes of a run's memory; a run
/// needs no locale to write the time in UTC.
package enum UTCTimestamp {
    /// To the second, the fraction cut (as `ISO8601DateFormatter` writes it): `2026-12-05T09:11:04Z`.
    package static func seconds(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard let whole = Int64(exactly: seconds) else { return "1970-01-01T00:00:00Z" }
        return text(seconds: whole, milliseconds: nil)
    }

    /// To the millisecond, rounded, so a timestamp read back (`date(_:)`) writes the same text again:
    /// `2026-12-05T09:11:04.123Z`.
    package static func milliseconds(_ date: Date) -> String {
        let total = (date.timeIntervalSince1970 * 1000).rounded()
        guard let milliseconds = Int64(exactly: total) else { return "1970-01-01T00:00:00.000Z" }
        let (seconds, fraction) = floorDivision(milliseconds, 1000)
        return text(seconds: seconds, milliseconds: Int(fraction))
    }

    /// The day, `2026-12-05`.
    package static func day(_ date: Date) -> String { String(seconds(date).prefix(10)) }

    /// Reads `YYYY-MM-DDTHH:MM:SS`, an optional fraction of up to nine digits, then `Z` or an offset `±HH:MM`; nil
    /// for anything else (a field out of range included).
    package static func date(_ text: String) -> Date? {
        var reader = Reader(Array(text.utf8))
        guard let year = reader.digits(4), reader.take("-"), let month = reader.digits(2), reader.take("-"),
            let day = reader.digits(2), reader.take("T"), let hour = reader.digits(2), reader.take(":"),
            let minute = reader.digits(2), reader.take(":"), let second = reader.digits(2)
        else { return nil }
        var fraction = 0.0
        if reader.take(".") {
            var scale = 0.1
            var count = 0
            while let digit = reader.digit() {
                fraction += Double(digit) * scale
                scale /= 10
                count += 1
            }
            guard (1...9).contains(count) else { return nil }
        }
        var offset = 0
        if reader.take("Z") {
        } else if let sign = reader.sign(), let hours = reader.digits(2), reader.take(":"), let minutes = reader.digits(2), hours < 24,
            minutes < 60
        {
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard reader.atEnd, let date = date(year: year, month: month, day: day, hour: hour, minute: minute, second: second) else {
            return nil
        }
        return date.addingTimeInterval(fraction - Double(offset))
    }

    /// The instant of a UTC calendar date and time, or nil for one that does not exist (February 30, hour 24).
    package static func date(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Date? {
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), (0..<24).contains(hour),
            (0..<60).contains(minute), (0..<60).contains(second)
        else { return nil }
        let days = daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(day))
        return Date(timeIntervalSince1970: Double(days * 86_400 + Int64(hour * 3600 + minute * 60 + second)))
    }

    private static func text(seconds: Int64, milliseconds: Int?) -> String {
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        let (year, month, day) = civilFromDays(days)
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
        text += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if let milliseconds { text += "." + pad(Int64(milliseconds), 3) }
        return text + "Z"
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value / divisor - (value % divisor < 0 ? 1 : 0)
        return (quotient, value - quotient * divisor)
    }

    /// Year, month and day of the day `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    private static func civilFromDays(_ days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = floorDivision(shifted, 146_097).0
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days from 1970-01-01 to the date (`days_from_civil`).
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let year = month <= 2 ? year - 1 : year
        let era = floorDivision(year, 400).0
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func digit() -> Int? {
            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
            defer { index += 1 }
            return Int(bytes[index] - UInt8(ascii: "0"))
        }

        mutating func digits(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        mutating func sign() -> Int? {
            if take("+") { return 1 }
            if take("-") { return -1 }
            return nil
        }
    }
}
