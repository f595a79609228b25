/// What a `burst:` request saw: the same request sent up to N times in a row, stopping at the first sign that the
/// server throttles (429, 503, Retry-After, an answer that took a second longer than the first and twice as long,
/// or a connection that fails after the first answer).
package struct Burst: Sendable, Hashable {
    /// Requests sent, the last included.
    package var attempts: Int
    /// The most it would have sent.
    package var limit: Int
    /// The first sign of throttling, in words; nil when none came.
    package var sign: String?
    /// The statuses seen, in order and run-length encoded ("401 ×29, 429").
    package var statuses: String
    /// Milliseconds the first and the slowest answer took.
    package var firstMilliseconds: Int
    package var slowestMilliseconds: Int

    package init(attempts: Int, limit: Int, sign: String?, statuses: String, firstMilliseconds: Int, slowestMilliseconds: Int) {
        self.attempts = attempts
        self.limit = limit
        self.sign = sign
        self.statuses = statuses
        self.firstMilliseconds = firstMilliseconds
        self.slowestMilliseconds = slowestMilliseconds
    }

    package var summary: String {
        "\(attempts) of up to \(limit) requests: \(statuses); first answer \(firstMilliseconds) ms, slowest \(slowestMilliseconds) ms"
            + (sign.map { "; throttled: \($0)" } ?? "; no sign of throttling")
    }

    /// The sign of throttling in one answer, given the first answer's time; nil when it shows none.
    package static func sign(status: Int, retryAfter: String?, milliseconds: Int, firstMilliseconds: Int, attempt: Int) -> String? {
        if status == 429 { return "429 Too Many Requests at attempt \(attempt)" }
        if let retryAfter { return "Retry-After: \(retryAfter) at attempt \(attempt)" }
        if status == 503 { return "503 at attempt \(attempt)" }
        if attempt > 1, milliseconds >= firstMilliseconds + 1000, milliseconds >= 2 * firstMilliseconds {
            return "attempt \(attempt) took \(milliseconds) ms, the first \(firstMilliseconds) ms"
        }
        return nil
    }

    /// "401 ×29, 429": consecutive equal statuses folded.
    package static func runs(_ statuses: [Int]) -> String {
        var parts: [String] = []
        var index = 0
        while index < statuses.count {
            var end = index
            while end + 1 < statuses.count, statuses[end + 1] == statuses[index] { end += 1 }
            parts.append(end > index ? "\(statuses[index]) ×\(end - index + 1)" : "\(statuses[index])")
            index = end + 1
        }
        return parts.joined(separator: ", ")
    }
}
