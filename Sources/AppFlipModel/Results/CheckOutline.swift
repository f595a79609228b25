/// A check without its texts: which requirement it judged, the verdict, and whether it applied. What the counts of
/// every report read (requirement outcomes, the requirements a case judged), kept in memory for a recorded result
/// whose texts are in its run's spool.
package struct CheckOutline: Sendable, Hashable {
    package var requirement: RequirementReference
    package var verdict: Verdict
    package var isApplicable: Bool

    package init(requirement: RequirementReference, verdict: Verdict, isApplicable: Bool) {
        self.requirement = requirement
        self.verdict = verdict
        self.isApplicable = isApplicable
    }

    /// Applied and did not hold (`CheckResult.isFinding`).
    package var isFinding: Bool { isApplicable && verdict != .pass }

    package init(_ check: CheckResult) {
        requirement = check.requirement
        verdict = check.verdict
        isApplicable = check.isApplicable
    }
}
