/// A 5xx answer to any of the suite's HTTP requests (TOK-GEN-009, SHOULD): the server failed on that input. Added
/// by the suite to the case whatever its own checks say, so a case whose checks held (a probe that only wanted
/// "no token") never passes silently over a crash.
package enum ServerErrorAnswer {
    package static let requirement = RequirementReference(id: "TOK-GEN-009", level: .should)

    /// The warning for an answer with `status`, or nil when it is not a 5xx.
    package static func check(status: Int, request: String) -> CheckResult? {
        guard (500...599).contains(status) else { return nil }
        return CheckResult(
            requirement: requirement, expected: "an answer to the input (a 4xx for input it refuses), never a 5xx",
            observed: "HTTP \(status) answering \(request): the server failed on that input", verdict: .warn)
    }
}
