/// The outcome of one check: what was expected, what was observed, and the verdict its level gives.
package struct CheckResult: Sendable, Hashable {
    package var requirement: RequirementReference
    package var expected: String
    /// What the target did; for a check that did not apply, "not applicable: " and the reason (made when read, so
    /// the thousands of such checks in a large run keep no copy of it).
    package var observed: String {
        get { notApplicable.map { "not applicable: " + $0 } ?? observedText }
        set { observedText = newValue }
    }
    private var observedText: String
    package var verdict: Verdict
    /// Set when the check did not apply to what the target did (a URL's content when nothing was opened): it
    /// neither held nor failed, and counts for neither the case's verdict nor its requirement's.
    package var notApplicable: String?

    package init(requirement: RequirementReference, expected: String, observed: String, verdict: Verdict, notApplicable: String? = nil) {
        self.requirement = requirement
        self.expected = expected
        observedText = observed
        self.verdict = verdict
        self.notApplicable = notApplicable
    }

    /// A check that did not apply.
    package static func notApplicable(_ requirement: RequirementReference, expected: String, reason: String) -> CheckResult {
        CheckResult(requirement: requirement, expected: expected, observed: "", verdict: .skip, notApplicable: reason)
    }

    package var held: Bool { verdict == .pass }
    package var isApplicable: Bool { notApplicable == nil }
    /// Applied and did not hold.
    package var isFinding: Bool { isApplicable && !held }
}
