import AppFlipModel

/// A run's findings grouped once (`FindingGroup`) with their root causes (`RootCause`): what every report that lists
/// findings shows (report.md, report.html, the summary), so no report groups or blames differently.
package struct ReportFindings: Sendable {
    package var failures: [FindingGroup]
    package var warnings: [FindingGroup]
    package var known: [FindingGroup]
    /// The failures' root causes, the most widespread first.
    package var causes: [RootCause]
    /// Every requirement of the catalog with what the run found of it (`RunResult.requirementOutcomes`): worked out once
    /// for the reports that show it (a pass over every result's checks).
    package var outcomes: [RequirementOutcome]

    package init(run: RunResult) {
        failures = FindingGroup.groups(of: run.results, verdicts: [.fail, .error])
        warnings = FindingGroup.groups(of: run.results, verdicts: [.warn, .info])
        known = FindingGroup.groups(of: run.results, verdicts: [.fail, .error], known: true)
        causes = RootCause.causes(of: failures)
        outcomes = run.requirementOutcomes
    }

    /// Whether the root causes say more than the failure groups do (fewer causes than failing groups).
    package var causesMerge: Bool { !causes.isEmpty && causes.count < failures.filter { $0.verdict == .fail }.count }
}
