import AppFlipModel

/// The short form for a CI job summary (`--summary FILE`, e.g. `$GITHUB_STEP_SUMMARY`): the verdict per profile,
/// the failed requirements and a pointer to the full reports, in a few dozen lines whatever the run.
extension MarkdownReport {
    package func renderSummary(reportsDirectory: String) -> String {
        let failures = FindingGroup.groups(of: run.results, verdicts: [.fail, .error])
        let warnings = FindingGroup.groups(of: run.results, verdicts: [.warn, .info])
        var text = "## AppFlip Conformance\n\n" + certificationHeadline() + verdictSection()
        if run.count(.fail) > 0 || run.count(.error) > 0 {
            text += failedRequirementsSection(failures, heading: "### Failed requirements", linked: false, limit: 20)
        }
        if !warnings.isEmpty {
            let cases = Set(warnings.flatMap { $0.members.map(\.result.conformanceCase.id) }).count
            text += "\(warnings.count) distinct warning\(warnings.count == 1 ? "" : "s") (SHOULD) in \(cases) case\(cases == 1 ? "" : "s").\n\n"
        }
        text += "Full details: `\(reportsDirectory)/report.md` (evidence, a command to reproduce each failure), `results.json`, `junit.xml`.\n\n"
        text += "Reproduce the run: `\(run.provenance.command.replacingOccurrences(of: "`", with: "'"))`\n"
        return text
    }
}
