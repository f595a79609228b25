import AppFlipModel

/// Why the requirement matrix gives a requirement no verdict, decided once for report.md and report.html: planned,
/// attested by hand, not observable, its profile not in the run, or simply not covered by the cases run.
package enum MatrixCoverage: Sendable {
    case judged(Verdict)
    case planned
    case attested(Attestation)
    case notObservable
    case profileNotRun(String)
    case notCovered

    /// The matrix's reading of `outcome` in `run`, whose profiles were `profiles`.
    package init(_ outcome: RequirementOutcome, in run: RunResult, profiles: [String]) {
        let requirement = outcome.requirement
        if let verdict = outcome.verdict {
            self = .judged(verdict)
        } else if requirement.planned != nil {
            self = .planned
        } else if let attestation = run.attestations.first(where: { $0.requirement == requirement.id }) {
            self = .attested(attestation)
        } else if requirement.notObservable != nil {
            self = .notObservable
        } else if !profiles.contains(requirement.profile) {
            self = .profileNotRun(requirement.profile)
        } else {
            self = .notCovered
        }
    }
}
