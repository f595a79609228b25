/// The outcome of one check: what was expected, what was observed, and the verdict its level gives.
package struct CheckResult: Sendable, Hashable {
    package var requirement: RequirementReference
    package var verdict: Verdict
    package var expected: String
    /// What the target did, or why the check did not apply: one or the other, never both (one string's room in a
    /// run that keeps a million checks).
    private let seen: Seen

    private enum Seen: Sendable, Hashable {
        case observed(String)
        case notApplicable(String)
    }

    /// What the target did; for a check that did not apply, "not applicable: " and the reason (made when read, so
    /// the thousands of such checks in a large run keep no copy of it).
    package var observed: String {
        switch seen {
        case .observed(let text): text
        case .notApplicable(let reason): "not applicable: " + reason
        }
    }

    /// Set when the check did not apply to what the target did (a URL's content when nothing was opened): it
    /// neither held nor failed, and counts for neither the case's verdict nor its requirement's.
    package var notApplicable: String? {
        if case .notApplicable(let reason) = seen { return reason }
        return nil
    }

    package init(requirement: RequirementReference, expected: String, observed: String, verdict: Verdict) {
        self.requirement = requirement
        self.verdict = verdict
        self.expected = expected
        seen = .observed(observed)
    }

    /// A check that did not apply.
    package static func notApplicable(_ requirement: RequirementReference, expected: String, reason: String) -> CheckResult {
        CheckResult(requirement: requirement, expected: expected, reason: reason)
    }

    private init(requirement: RequirementReference, expected: String, reason: String) {
        self.requirement = requirement
        verdict = .skip
        self.expected = expected
        seen = .notApplicable(reason)
    }

    /// What was seen, or why the check did not apply (`isApplicable` tells which): what the spool keeps (`SpooledTexts`).
    var seenText: String {
        switch seen {
        case .observed(let text), .notApplicable(let text): text
        }
    }

    /// A check from its parts, as the spool gives it back (`SpooledTexts`).
    init(requirement: RequirementReference, verdict: Verdict, expected: String, seenText: String, applicable: Bool) {
        self.requirement = requirement
        self.verdict = verdict
        self.expected = expected
        seen = applicable ? .observed(seenText) : .notApplicable(seenText)
    }

    /// This check with its expected text and what was seen (or why it did not apply) replaced.
    func withTexts(expected: String, seen: String) -> CheckResult {
        CheckResult(requirement: requirement, verdict: verdict, expected: expected, seenText: seen, applicable: isApplicable)
    }

    package var held: Bool { verdict == .pass }
    package var isApplicable: Bool { notApplicable == nil }
    /// Applied and did not hold.
    package var isFinding: Bool { isApplicable && !held }
}
