import AppFlipBase
import Foundation

extension Evidence {
    /// One exchange with the target as a reviewer reads it, the way the OpenID Foundation's logs show one: what was
    /// sent and what came back (`transcript`), when it was sent and how long the answer took, and the headers both
    /// ways. Everything here is redacted and bounded before a report sees it.
    package struct Exchange: Sendable, Hashable {
        /// The request line, its body and a summary of the answer with an excerpt of its body; for evidence that is
        /// not one HTTP request (a sign-in walk, a TLS probe, a native app's step) the whole description.
        package var transcript: String
        /// When the request went out (wall clock); nil when unknown (an earlier results.json) or not one request.
        package var sentAt: Date?
        /// From sending the request to reading the whole answer, in milliseconds.
        package var milliseconds: Int?
        /// The request's header lines as the suite wrote them (`Host` and framing included), in order.
        package var requestHeaders: [Header]
        /// The answer's header lines, in the order they came.
        package var responseHeaders: [Header]

        package init(
            _ transcript: String, sentAt: Date? = nil, milliseconds: Int? = nil, requestHeaders: [Header] = [],
            responseHeaders: [Header] = []
        ) {
            self.transcript = transcript
            self.sentAt = sentAt
            self.milliseconds = milliseconds
            self.requestHeaders = requestHeaders
            self.responseHeaders = responseHeaders
        }

        /// The exchange as report text: the transcript's first line, the time (unless `times` is false, for
        /// byte-identical reports), the request headers (`> `), the rest of the transcript, the response headers (`< `).
        package func rendered(times: Bool) -> String {
            var lines = transcript.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            var text = String(lines.removeFirst())
            if times, let sentAt {
                text += "\n  at " + Self.timestamp(sentAt) + (milliseconds.map { ", answered in \($0) ms" } ?? "")
            }
            for header in requestHeaders { text += "\n  > " + header.line }
            if let rest = lines.first { text += "\n" + rest }
            for header in responseHeaders { text += "\n  < " + header.line }
            return text
        }

        /// `2026-11-25T20:21:16.123Z`: UTC with milliseconds, as results.json writes it, rounded to the millisecond so
        /// a timestamp read back (`date(_:)`) writes the same text again.
        package static func timestamp(_ date: Date) -> String { UTCTimestamp.milliseconds(date) }

        /// Reads `timestamp(_:)`'s form back.
        package static func date(_ text: String) -> Date? { UTCTimestamp.date(text) }
    }

    /// One header line of an exchange.
    package struct Header: Sendable, Hashable {
        package var name: String
        package var value: String

        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }

        /// `Name: value`; a line with no name (the count of lines not kept) is its value alone.
        package var line: String { name.isEmpty ? value : "\(name): \(value)" }
    }

    /// An exchange's header lines as recorded: at most `headerLimit`, then one line with no name counting the rest.
    /// Values are kept as they came; recording the exchange (`Redactor.redact(_: [Header])`, where a case's outcome
    /// records it) hides credentials by the header's name and every known secret, then cuts each value to
    /// `headerValueLimit`.
    package static func headers(_ fields: [(name: String, value: String)]) -> [Header] {
        var kept = fields.prefix(headerLimit).map { Header(String($0.name.unicodeScalars.prefix(128)), $0.value) }
        if fields.count > headerLimit { kept.append(Header("", "… \(fields.count - headerLimit) more header lines not kept")) }
        return kept
    }

    /// At most this many header lines of each direction are kept; the rest are counted in one line.
    package static let headerLimit = 40
    /// A header value longer than this (after redaction) is cut, with a truncation mark.
    package static let headerValueLimit = 512
}
