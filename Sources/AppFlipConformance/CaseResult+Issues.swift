/// What a result means for a test: the issues `check(against:)` records, each with its severity.
extension CaseResult {
    /// One issue to record for a result.
    public struct Issue: Sendable, Hashable {
        public enum Severity: Sendable, Hashable {
            /// Fails the test: a MUST or MUST NOT that did not hold, or a target error.
            case failure
            /// Recorded without failing the test: a SHOULD (warn) or MAY (info) that did not hold.
            case warning
        }

        public var severity: Severity
        public var comment: String
    }

    /// The issues for this result, in the case's order: one per finding (its requirement, level, expected and
    /// observed), a target error as one failure that says so (apart from requirement failures), nothing for a pass
    /// or a skip.
    public var issues: [Issue] {
        var issues = findings.map { finding in
            Issue(
                severity: finding.verdict == .fail ? .failure : .warning,
                comment: "\(finding.verdict == .fail ? "" : "\(finding.verdict.rawValue.uppercased()) ")\(finding)")
        }
        if verdict == .error {
            issues.append(Issue(severity: .failure, comment: "target error (inconclusive, not a requirement failure): \(message ?? "no answer")"))
        } else if verdict == .fail, !findings.contains(where: { $0.verdict == .fail }) {
            // A failure that no single check carries (a step that could not go on after a violation).
            issues.append(Issue(severity: .failure, comment: message ?? "failed"))
        }
        return issues
    }
}
