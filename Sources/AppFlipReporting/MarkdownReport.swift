import AppFlipModel

/// Writes a run as a Markdown report for a certification reviewer: the verdict first, then counts, findings
/// with evidence, the requirement matrix and the run's provenance.
public struct MarkdownReport: Sendable {
    public var run: RunResult
    /// The profiles this run covered; the matrix lists their requirements.
    public var profiles: [String]
    /// When true, times and the start timestamp are left out, so the same inputs give the same bytes.
    public var reproducible: Bool

    public init(run: RunResult, profiles: [String], reproducible: Bool = false) {
        self.run = run
        self.profiles = profiles
        self.reproducible = reproducible
    }

    public func render() -> String {
        var text = "# AppFlip Conformance report\n\n"
        text += verdictSection()
        text += countsSection()
        text += findingsSection()
        text += matrixSection()
        text += provenanceSection()
        text += allCasesSection()
        return text
    }

    private static let icons: [Verdict: String] = [.pass: "✅", .info: "ℹ️", .warn: "⚠️", .skip: "⏭️", .fail: "❌", .error: "💥"]

    private func verdictSection() -> String {
        let total = run.results.count
        let judged = run.results.filter { $0.verdict != .skip }.count
        let coverage = run.coverage(of: profiles)
        let tested = coverage.filter(\.isTested).map(\.profile)
        let scope = tested.isEmpty ? "" : " for " + tested.map { "`\($0)`" }.joined(separator: ", ")
        let skipped = total - judged
        let ran = skipped == 0 ? "all \(total) cases" : "the \(judged) cases that ran (\(skipped) skipped)"
        var text: String
        switch run.overall {
        case .fail:
            text = "**Verdict: ❌ NOT CONFORMANT** — \(run.count(.fail)) of \(total) cases violate a MUST or MUST NOT requirement."
        case .error:
            text = total == 0 ? "**Verdict: 💥 INCONCLUSIVE** — no case ran."
                : "**Verdict: 💥 INCONCLUSIVE** — no requirement failed, but \(run.count(.error)) of \(total) cases ended in a target error (crash, timeout or unusable answer)."
        case .skip:
            text = "**Verdict: ⏭️ NOTHING TESTED** — every one of the \(total) cases was skipped, so nothing was checked. This is not a pass."
        case .warn:
            text = "**Verdict: ✅ CONFORMANT\(scope), with warnings** — every MUST held in \(ran); \(run.count(.warn)) cases break a SHOULD."
        case .pass, .info:
            text = "**Verdict: ✅ CONFORMANT\(scope)** — every check applied in \(ran) held."
        }
        let untested = coverage.filter { !$0.isTested }
        let partial = coverage.filter { $0.isTested && $0.judged < $0.total }
        if !untested.isEmpty || !partial.isEmpty {
            text += "\n\n| Profile | Cases | Judged | Tested |\n| --- | ---: | ---: | --- |\n"
            for entry in coverage {
                let state: String
                if !entry.isTested {
                    state = "**NOT TESTED**: \(MarkdownText.inline(entry.reason, limit: 300))"
                } else if entry.judged < entry.total {
                    state = "partly: \(entry.total - entry.judged) skipped (\(MarkdownText.inline(entry.reason, limit: 300)))"
                } else {
                    state = "yes"
                }
                text += "| `\(entry.profile)` | \(entry.total) | \(entry.judged) | \(state) |\n"
            }
        }
        for problem in run.configurationProblems {
            let spoiled = run.results.filter { $0.configurationProblem == problem }.count
            text += (text.hasSuffix("\n") ? "\n" : "\n\n") + "**⚙️ Configuration problem** (\(spoiled) cases could not be judged): \(MarkdownText.inline(problem, limit: 500))"
        }
        let suiteFaults = run.results.filter { $0.suiteFault != nil }
        if let first = suiteFaults.first?.suiteFault {
            text = "**Verdict: 🛠️ SUITE ERROR** — the suite itself ran out of resources for \(suiteFaults.count) of \(total) cases "
                + "(\(MarkdownText.inline(first, limit: 200))). Those cases judged nothing and blame nothing on the target; rerun "
                + "with fewer `--jobs` or a higher `ulimit -n`. No verdict is given for this run."
        }
        if run.incomplete { text += "\n\n**This run is incomplete:** it was interrupted; only the cases listed here ran." }
        return text + (text.hasSuffix("\n") ? "\n" : "\n\n")
            + "Exit code: \(run.exitStatus.rawValue). Target: \(MarkdownText.inline(run.provenance.target)).\n\n"
    }

    private func countsSection() -> String {
        var text = "## Counts\n\n| Verdict | Cases |\n| --- | ---: |\n"
        for verdict in Verdict.allCases.reversed() {
            text += "| \(Self.icons[verdict] ?? "") \(verdict.rawValue) | \(run.count(verdict)) |\n"
        }
        text += "| **total** | **\(run.results.count)** |\n\n"
        text += "| Group | Cases | pass | info | warn | skip | fail | error |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
        for group in ReportFormatting.groups(run.results) {
            let counts = Verdict.allCases.map { verdict in group.results.filter { $0.verdict == verdict }.count }
            text += "| `\(group.name)` | \(group.results.count) | " + counts.map(String.init).joined(separator: " | ") + " |\n"
        }
        return text + "\n"
    }

    private func findingsSection() -> String {
        let serious = run.results.filter { $0.verdict == .fail || $0.verdict == .error }
        let minor = run.results.filter { $0.verdict == .warn || $0.verdict == .info }
        var text = "## Failures and errors\n\n"
        if serious.isEmpty { text += "None.\n\n" }
        for result in serious { text += finding(result) }
        text += "## Warnings and observations\n\n"
        if minor.isEmpty { text += "None.\n\n" }
        for result in minor { text += finding(result) }
        return text
    }

    private func finding(_ result: CaseResult) -> String {
        let conformanceCase = result.conformanceCase
        var text = "### \(Self.icons[result.verdict] ?? "") `\(conformanceCase.id)` — \(MarkdownText.inline(conformanceCase.title))\n\n"
        text += "- Verdict: **\(result.verdict.rawValue)**\n"
        text += "- Case file: `\(ReportFormatting.location(conformanceCase))` (scenario `\(conformanceCase.scenario.rawValue)`)\n"
        if result.verdict == .error || (result.verdict == .fail && result.message != nil) {
            text += "- \(result.verdict == .error ? "Target error" : "Then"): \(MarkdownText.inline(result.message ?? "no answer"))\n"
            text += "- Requirements this case checks: \(ReportFormatting.requirementList(result))\n"
        }
        for check in result.findings {
            let requirement = run.catalog[check.requirement.id]
            text += "- **\(check.requirement)** (\(check.verdict.rawValue))"
            if let requirement { text += " — \(MarkdownText.inline(requirement.title)) [\(MarkdownText.inline(run.catalog.citationText(for: requirement.id)))]" }
            text += "\n  - Expected: \(MarkdownText.inline(check.expected))\n  - Observed: \(MarkdownText.inline(check.observed))\n"
        }
        if result.verdict == .fail || result.verdict == .error {
            // One line per requirement and reason: "AF-LINK-006 MUST: 3 checks not judged — nothing was opened …".
            var groups: [(requirement: RequirementReference, reason: String, count: Int)] = []
            for check in result.notApplicable {
                let reason = check.notApplicable ?? ""
                if let index = groups.firstIndex(where: { $0.requirement == check.requirement && $0.reason == reason }) {
                    groups[index].count += 1
                } else {
                    groups.append((check.requirement, reason, 1))
                }
            }
            for group in groups {
                let what = group.count == 1 ? "1 check" : "\(group.count) checks"
                text += "- \(group.requirement): \(what) not judged — \(MarkdownText.inline(group.reason))\n"
            }
        }
        var evidence = result.evidence.link.isEmpty ? "" : "link: \(result.evidence.link)\n"
        if !result.evidence.answer.isEmpty { evidence += "answer: \(result.evidence.answer)\n" }
        for exchange in result.evidence.exchanges { evidence += "request: \(exchange)\n" }
        if !result.evidence.stderr.isEmpty { evidence += "stderr:\n\(result.evidence.stderr)\n" }
        text += "\nEvidence:\n\n" + MarkdownText.codeBlock(evidence) + "\n"
        return text
    }

    private func matrixSection() -> String {
        var text = "## Requirement matrix\n\n"
        let all = run.catalog.requirements
        // The cases naming each requirement, computed once (rows × cases would dominate report writing).
        var casesByRequirement: [String: [CaseResult]] = [:]
        for result in run.results {
            var seen = Set<String>()
            for reference in result.requirements where seen.insert(reference.id).inserted {
                casesByRequirement[reference.id, default: []].append(result)
            }
        }
        let judged = all.filter { requirement in (casesByRequirement[requirement.id] ?? []).contains { $0.verdict != .skip } }
        let planned = all.filter { $0.planned != nil }.count
        let unobservable = all.filter { $0.notObservable != nil }.count
        text += "This run judged \(judged.count) of the \(all.count) requirements in the catalog; \(planned) are planned (no case "
            + "covers them yet) and \(unobservable) cannot be observed headlessly. Every row is listed, covered or not.\n\n"
        text += "| ID | Level | Requirement | Source | Cases | Result |\n| --- | --- | --- | --- | ---: | --- |\n"
        var uncovered: [Requirement] = []
        for requirement in all {
            let cases = casesByRequirement[requirement.id] ?? []
            if cases.isEmpty { uncovered.append(requirement) }
            let result: String
            if cases.isEmpty {
                if requirement.planned != nil {
                    result = "not covered: planned"
                } else if requirement.notObservable != nil {
                    result = "not covered: not observable"
                } else if !profiles.contains(requirement.profile) {
                    result = "not run (profile `\(requirement.profile)` not in this run)"
                } else {
                    result = "not covered in this run"
                }
            } else {
                let verdict = Self.requirementVerdict(requirement.id, in: cases)
                result = "\(Self.icons[verdict] ?? "") \(verdict.rawValue)"
            }
            text += "| \(requirement.id) | \(requirement.level.rawValue) | \(MarkdownText.inline(requirement.title)) | "
            text += "\(MarkdownText.inline(run.catalog.citationText(for: requirement.id))) | \(cases.count) | \(result) |\n"
        }
        text += "\n"
        if !uncovered.isEmpty {
            text += "### Requirements no case in this run covers\n\n"
            for requirement in uncovered {
                let reason = requirement.uncoveredReason
                    ?? (profiles.contains(requirement.profile) ? "No case in this run names it (check --filter and the case files)."
                        : "Its profile `\(requirement.profile)` was not part of this run.")
                text += "- **\(requirement.id)** (\(requirement.level.rawValue)) \(MarkdownText.inline(requirement.title)): \(MarkdownText.inline(reason, limit: 1000))\n"
            }
            text += "\n"
        }
        let decisions = run.catalog.requirements.filter { profiles.contains($0.profile) && $0.decision != nil }
        if !decisions.isEmpty {
            text += "### Decisions where sources conflict\n\n"
            for requirement in decisions {
                text += "- **\(requirement.id)**: \(MarkdownText.inline(requirement.decision ?? "", limit: 2000))\n"
            }
            text += "\n"
        }
        return text
    }

    /// A requirement fails only when one of its own checks failed. A case in which none of its checks was
    /// judged counts as error when the case ended in error; checks that did not apply count for nothing. With
    /// nothing judged at all it is skipped.
    public static func requirementVerdict(_ id: String, in cases: [CaseResult]) -> Verdict {
        var verdicts: [Verdict] = []
        for result in cases {
            let own = result.checks.filter { $0.requirement.id == id && $0.isApplicable }.map(\.verdict)
            if !own.isEmpty {
                verdicts += own
            } else if result.verdict == .error {
                verdicts.append(.error)
            }
        }
        if verdicts.contains(.fail) { return .fail }
        if verdicts.contains(.error) { return .error }
        return verdicts.max() ?? .skip
    }

    private func provenanceSection() -> String {
        let provenance = run.provenance
        var text = "## Provenance\n\n| | |\n| --- | --- |\n"
        let samples: String = provenance.samples.map { "\($0) per sampling check (--samples)" } ?? "as each case states"
        let rows: [(String, String)] = [
            ("Suite version", provenance.suiteVersion),
            ("Case files", "\(provenance.caseFileCount) files, sha256 `\(provenance.caseDigest)`"),
            ("Seed", String(provenance.seed)),
            ("Target", provenance.target),
            ("Mode", provenance.mode),
            ("Jobs", String(provenance.jobs)),
            ("Filter", provenance.filter ?? "(none)"),
            ("Samples", samples),
            ("TLS", provenance.transport.isEmpty ? "not used: every endpoint of this run is plain http"
                : provenance.transport.joined(separator: "; ") + " (certificate chains verified by the platform's HTTPS stack)"),
        ] + (provenance.handlerStartup.map { [("Handler start-up", $0)] } ?? []) + (reproducible ? [] : [
            ("Started (UTC)", provenance.startedAt),
            ("Wall time", ReportFormatting.seconds(provenance.duration) + " s"),
        ] + (provenance.handlerStartupMeasured.map { [("Handler start-up times", $0)] } ?? []))
        for (name, value) in rows {
            text += "| \(name) | \(name == "Case files" ? value : MarkdownText.inline(value)) |\n"
        }
        text += "\nReproduce with:\n\n" + MarkdownText.codeBlock(provenance.command) + "\n"
        return text
    }

    private func allCasesSection() -> String {
        var text = "## All cases\n\n| Case | Verdict | Requirements | Time (s) |\n| --- | --- | --- | ---: |\n"
        for result in run.results {
            text += "| `\(result.conformanceCase.id)` | \(Self.icons[result.verdict] ?? "") \(result.verdict.rawValue) | "
            text += "\(ReportFormatting.requirementList(result)) | \(ReportFormatting.seconds(reproducible ? 0 : result.duration)) |\n"
        }
        return text
    }
}
