import AppFlipBase
import AppFlipTestSupport
import Foundation
import Testing

/// The suite's own ISO 8601 timestamps, held to Foundation's formatter as the oracle over four centuries of dates.
@Suite("UTC timestamps")
struct UTCTimestampTests {
    /// Whole seconds: before 2001, Foundation's formatter cuts a fraction toward its reference date (up), where ours cuts
    /// it down as it does after 2001; the suite writes only the present time to the second.
    @Test("Seconds and days read as Foundation's ISO8601DateFormatter writes them, leap days and years before 1970 included")
    func matchesFoundation() {
        let formatter = ISO8601DateFormatter()
        var random = Mutator(seed: 20_261_205)
        var instants: [Double] = [0, -1, 951_782_400, 951_868_799, 4_107_542_400, -2_208_988_800, 1_764_926_064]
        for _ in 0..<2000 { instants.append(Double(random.below(24_000_000_000) - 12_000_000_000)) }
        for instant in instants {
            let date = Date(timeIntervalSince1970: instant)
            #expect(UTCTimestamp.seconds(date) == formatter.string(from: date), "at \(instant)")
            #expect(UTCTimestamp.day(date) == String(formatter.string(from: date).prefix(10)))
            #expect(UTCTimestamp.date(UTCTimestamp.seconds(date)) == Date(timeIntervalSince1970: instant.rounded(.down)))
        }
    }

    @Test("Milliseconds are rounded, and what is read back writes the same text again")
    func millisecondsRoundTrip() {
        #expect(UTCTimestamp.milliseconds(Date(timeIntervalSince1970: 1_764_926_064.1234)) == "2025-12-05T09:14:24.123Z")
        #expect(UTCTimestamp.milliseconds(Date(timeIntervalSince1970: 1_764_926_064.9996)) == "2025-12-05T09:14:25.000Z")
        #expect(UTCTimestamp.milliseconds(Date(timeIntervalSince1970: -0.0004)) == "1970-01-01T00:00:00.000Z")
        #expect(UTCTimestamp.milliseconds(Date(timeIntervalSince1970: -0.2)) == "1969-12-31T23:59:59.800Z")
        #expect(UTCTimestamp.seconds(Date(timeIntervalSince1970: 1_764_926_064.9)) == "2025-12-05T09:14:24Z")
        var random = Mutator(seed: 20_261_206)
        for _ in 0..<2000 {
            let instant = Double(random.below(8_000_000_000_000) - 4_000_000_000_000) / 1000 + Double(random.below(1000)) / 1_000_000
            let text = UTCTimestamp.milliseconds(Date(timeIntervalSince1970: instant))
            let date = UTCTimestamp.date(text)
            #expect(date.map(UTCTimestamp.milliseconds) == text)
        }
    }

    @Test("Offsets and fractions are read; a date that does not exist, or anything more or less, is nil")
    func parsing() {
        #expect(UTCTimestamp.date("2026-12-05T10:11:04+01:00") == UTCTimestamp.date("2026-12-05T09:11:04Z"))
        #expect(UTCTimestamp.date("2026-12-05T08:41:04-00:30") == UTCTimestamp.date("2026-12-05T09:11:04Z"))
        #expect(UTCTimestamp.date("2026-12-05T09:11:04.5Z")?.timeIntervalSince1970 == 1_796_461_864.5)
        #expect(UTCTimestamp.date("2024-02-29T00:00:00Z") != nil)
        for bad in [
            "2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-12-05T24:00:00Z", "2026-12-05T09:60:00Z", "2026-12-05T09:11:04",
            "2026-12-05 09:11:04Z", "2026-12-05T09:11:04.Z", "2026-12-05T09:11:04.1234567890Z", "2026-12-05T09:11:04Zx",
            "26-12-05T09:11:04Z", "",
        ] {
            #expect(UTCTimestamp.date(bad) == nil, "\(bad)")
        }
    }
}
