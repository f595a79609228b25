import AppFlipModel

/// The run's root causes as the console's last lines before the verdict: a CI log is read from its end, so what to
/// fix first is there, the most widespread first, as report.md's "Root causes" lists them.
package enum RootCauseLines {
    package static let shown = 5

    package static func lines(_ run: RunResult) -> [ConsoleText] {
        let causes = RootCause.causes(of: FindingGroup.groups(of: run.results, verdicts: [.fail, .error]))
        guard !causes.isEmpty else { return [] }
        var lines: [ConsoleText] = []
        for (index, cause) in causes.prefix(shown).enumerated() {
            let requirements = cause.requirements.map { "\($0.reference.id) (\($0.cases))" }.joined(separator: ", ")
            let first = cause.cases.first?.conformanceCase.id ?? ""
            let observed = cause.observed.count > 160 ? String(cause.observed.prefix(159)) + "…" : cause.observed
            lines.append(
                "ROOT CAUSE \(index + 1) of \(causes.count): \(observed) — \(cause.cases.count) case\(cause.cases.count == 1 ? "" : "s") under "
                    + "\(requirements); first \(first)")
        }
        if causes.count > shown { lines.append("… and \(causes.count - shown) more root causes in report.md") }
        return lines
    }
}
