/// The outcome of one check: what was expected, what was observed, and the verdict its level gives.
public struct CheckResult: Sendable, Hashable {
    public var requirement: RequirementReference
    public var expected: String
    public var observed: String
    public var verdict: Verdict

    public init(requirement: RequirementReference, expected: String, observed: String, verdict: Verdict) {
        self.requirement = requirement
        self.expected = expected
        self.observed = observed
        self.verdict = verdict
    }

    public var held: Bool { verdict == .pass }
}
