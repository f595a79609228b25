import AppFlipHTTP
import AppFlipModel
import AppFlipRedaction
import Foundation

/// A burst step: the same request sent again and again until the server throttles or the limit is reached.
extension StepExecutor {
    /// A `burst:` request: the same request up to `limit` times, stopping at the first sign of throttling. The
    /// observation is the last answer, carrying what the burst saw; a connection that fails after answers came is
    /// itself a sign (the server or its network stopped taking requests).
    func burst(_ prepared: Prepared, limit: Int, label: String, state: inout CaseState) -> Observation? {
        var statuses: [Int] = []
        var first = 0
        var slowest = 0
        var sign: String?
        var last: HTTPResponse?
        var dropped: String?
        let burstStarted = Date()
        for attempt in 1...limit {
            let started = Date()
            let answer = send(prepared)
            let milliseconds = Int(Date().timeIntervalSince(started) * 1000)
            switch answer {
            case .failure(let problem):
                guard attempt > 1 else {
                    state.outcome.record(.target(label + problem.message))
                    return nil
                }
                dropped = "attempt \(attempt) got no answer: \(problem.message)"
            case .success(let response):
                if attempt == 1 { first = milliseconds }
                slowest = max(slowest, milliseconds)
                statuses.append(response.status)
                last = response
                sign = Burst.sign(
                    status: response.status, retryAfter: response.headers["Retry-After"], milliseconds: milliseconds,
                    firstMilliseconds: first, attempt: attempt)
            }
            if sign != nil || dropped != nil { break }
        }
        let summary = Burst(
            attempts: statuses.count + (dropped == nil ? 0 : 1), limit: limit, sign: sign ?? dropped,
            statuses: Burst.runs(statuses), firstMilliseconds: first, slowestMilliseconds: slowest)
        let transcript =
            "\(label)\(prepared.request.method) \(Redaction.redact(url: prepared.origin.description + prepared.request.target)) "
            + "(a burst)\n  → \(summary.summary)"
        state.outcome.record(
            Evidence.Exchange(
                transcript, sentAt: burstStarted, milliseconds: Int((Date().timeIntervalSince(burstStarted) * 1000).rounded()),
                requestHeaders: Evidence.headers(prepared.request.headerLines(host: prepared.origin.hostHeader)),
                responseHeaders: last.map { Evidence.headers($0.headers.fields.map { ($0.name, $0.value) }) } ?? []))
        guard let last else { return nil }
        var http = HTTPObservation(status: last.status, headers: last.headers.fields.map { ($0.name, $0.value) }, body: last.body)
        http.burst = summary
        return .http(http)
    }
}
