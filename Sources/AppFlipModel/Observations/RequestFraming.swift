/// Whether a server read the whole of a request it may have left partly unread (a body on a GET, framing set by
/// hand), judged by the suite on every such probe (TOK-GEN-008, SHOULD): the probe goes on a connection of its own;
/// when the server keeps that connection open, one more request on it (a GET of the same path, no body) must be
/// answered as the same request is on a fresh connection. A server that left bytes unread reads them as the start
/// of that request and answers something else (Python's http.server: 501 "Unsupported method ('client_id=…GET')").
package enum RequestFraming {
    package static let requirement = RequirementReference(id: "TOK-GEN-008", level: .should)
    static let expected = "the request read whole, or the connection closed after the answer"

    /// What followed the probe's answer: the connection closed, or the follow-up's answer (or why none came).
    package enum FollowUp: Sendable, Hashable {
        case closed
        case answered(status: Int)
        case noAnswer(String)
    }

    /// The check for one probe. `followUp` is what the follow-up got on the probe's connection; `fresh` what the
    /// same follow-up got on a connection of its own (nil when not asked: the connection closed).
    package static func check(probe: String, followUp: FollowUp, fresh: FollowUp?) -> CheckResult {
        switch (followUp, fresh) {
        case (.closed, _):
            return CheckResult(
                requirement: requirement, expected: expected, observed: "the server closed the connection after answering \(probe)",
                verdict: .pass)
        case (_, .noAnswer(let problem)?):
            return .notApplicable(
                requirement, expected: expected,
                reason: "the same follow-up request on a fresh connection got no answer to compare with (\(problem))")
        case (_, .closed?), (_, nil):
            return .notApplicable(
                requirement, expected: expected,
                reason: "the same follow-up request on a fresh connection got no answer to compare with")
        case (.answered(let same), .answered(let alone)?) where same == alone:
            return CheckResult(
                requirement: requirement, expected: expected,
                observed: "after \(probe), the next request on the same connection was answered \(same), as on a fresh one",
                verdict: .pass)
        case (.answered(let same), .answered(let alone)?):
            return CheckResult(
                requirement: requirement, expected: expected,
                observed: "after \(probe), the next request on the same connection was answered \(same) where a fresh connection "
                    + "got \(alone): the server left the body unread and read it as the start of the next request",
                verdict: .warn)
        case (.noAnswer(let problem), .answered(let alone)?):
            return CheckResult(
                requirement: requirement, expected: expected,
                observed: "after \(probe), the next request on the same connection got no usable answer (\(problem)) where a "
                    + "fresh connection got \(alone): the server read what it left of the probe as the next request",
                verdict: .warn)
        }
    }
}
