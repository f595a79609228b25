/// The outcome of one check: what was expected, what was observed, and the verdict its level gives.
public struct CheckResult: Sendable, Hashable {
    public var requirement: RequirementReference
    public var expected: String
    public var observed: String
    public var verdict: Verdict
    /// Set when the check did not apply to what the target did (a URL's content when nothing was opened): it
    /// neither held nor failed, and counts for neither the case's verdict nor its requirement's.
    public var notApplicable: String?

    public init(requirement: RequirementReference, expected: String, observed: String, verdict: Verdict, notApplicable: String? = nil) {
        self.requirement = requirement
        self.expected = expected
        self.observed = observed
        self.verdict = verdict
        self.notApplicable = notApplicable
    }

    /// A check that did not apply.
    public static func notApplicable(_ requirement: RequirementReference, expected: String, reason: String) -> CheckResult {
        CheckResult(requirement: requirement, expected: expected, observed: "not applicable: \(reason)", verdict: .skip, notApplicable: reason)
    }

    public var held: Bool { verdict == .pass }
    public var isApplicable: Bool { notApplicable == nil }
    /// Applied and did not hold.
    public var isFinding: Bool { isApplicable && !held }
}
