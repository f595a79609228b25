import AppFlipModel

/// Writes a run as a Markdown report for a certification reviewer: the verdict first, then counts, findings
/// with evidence, the requirement matrix and the run's provenance.
package struct MarkdownReport: Sendable {
    package var run: RunResult
    /// The profiles this run covered; the matrix lists their requirements.
    package var profiles: [String]
    /// When true, times and the start timestamp are left out, so the same inputs give the same bytes.
    package var reproducible: Bool

    package init(run: RunResult, profiles: [String], reproducible: Bool = false) {
        self.run = run
        self.profiles = profiles
        self.reproducible = reproducible
    }

    /// GitHub's limit for a job summary, and a sensible ceiling for any report a browser renders at once.
    package static let sizeLimit = 1 << 20

    /// The report, laid out for a reviewer: the verdict per profile, the failed requirements, each distinct failure
    /// once (identical ones grouped, evidence folded), skips in one line per reason, counts and provenance; the
    /// requirement matrix, decisions and every case in a folded appendix. Kept under `sizeLimit`: when a run would
    /// exceed it, the least useful parts are cut first and the report says what was cut.
    package func render() -> String {
        // The parts no level changes are rendered once; each level's text is measured before it is joined.
        let findings = Findings(run: run)
        let head = "# AppFlip Conformance report\n\n" + certificationHeadline() + verdictSection()
        let body = contents(failures: findings.failures, warnings: findings.warnings, known: findings.known)
            + (findings.causesMerge ? rootCausesSection(findings.causes) : "") + failedRequirementsSection(findings.failures)
        let tail = toAttestSection() + attestedSection() + skippedSection() + provenanceSection()
        var appendix = Appendix(report: self)
        var cuts: [String] = []
        for level in Detail.allCases {
            if let parts = compose(level, cuts: cuts, head: head, body: body, findings: findings, tail: tail, appendix: &appendix),
               parts.reduce(0, { $0 + $1.utf8.count }) <= Self.sizeLimit {
                return parts.joined()
            }
            cuts.append(level.cutBeyond)
        }
        let parts = compose(.minimal, cuts: cuts + ["the report was still too large and ends early"], head: head, body: body,
                            findings: findings, tail: tail, appendix: &appendix) ?? []
        return Self.truncated(parts.joined(), limit: Self.sizeLimit)
    }

    /// The run's findings grouped once for every section that lists them.
    struct Findings {
        var failures: [FindingGroup]
        var warnings: [FindingGroup]
        var known: [FindingGroup]
        /// The failures' root causes, worked out once for every rendering level.
        var causes: [RootCause]

        init(run: RunResult) {
            failures = FindingGroup.groups(of: run.results, verdicts: [.fail, .error])
            warnings = FindingGroup.groups(of: run.results, verdicts: [.warn, .info])
            known = FindingGroup.groups(of: run.results, verdicts: [.fail, .error], known: true)
            causes = RootCause.causes(of: failures)
        }

        /// Whether the root causes say more than the failure groups do (fewer causes than failing groups).
        var causesMerge: Bool { !causes.isEmpty && causes.count < failures.filter { $0.verdict == .fail }.count }
    }

    /// How much of the bulky parts a rendering includes; each level cuts more than the one before.
    enum Detail: Int, CaseIterable {
        case full, trimmed, compact, minimal

        /// Cases listed per finding group, and the number of groups that show their evidence.
        var casesPerGroup: Int { [Int.max, 100, 20, 5][rawValue] }
        var groupsWithEvidence: Int { [Int.max, 50, 10, 0][rawValue] }
        var listsEveryCase: Bool { self == .full || self == .trimmed }
        var hasMatrix: Bool { self != .minimal }

        /// What moving past this level cuts, for the note at the top of the report.
        var cutBeyond: String {
            switch self {
            case .full: "case lists beyond 100 per finding and evidence beyond the first 50 findings"
            case .trimmed: "case lists beyond 20 per finding, evidence beyond the first 10 findings and the list of every case"
            case .compact: "all evidence, case lists beyond 5 per finding and the requirement matrix"
            case .minimal: "the end of the report"
            }
        }
    }

    /// The report's parts at one level of detail, or nil when one part alone is already too large to fit.
    private func compose(_ detail: Detail, cuts: [String], head: String, body: String, findings: Findings, tail: String,
                         appendix: inout Appendix) -> [String]? {
        guard let appendixText = appendix.text(detail) else { return nil }
        var parts = [head]
        if !cuts.isEmpty {
            parts.append("> **Shortened to stay under \(Self.sizeLimit / 1024) KiB:** \(cuts.joined(separator: "; ")). results.json and junit.xml "
                + "have everything.\n\n")
        }
        parts.append(body)
        // With root causes above (fewer than the findings), the findings in detail are one click away: the first
        // screen holds the verdict, the causes and the failed requirements.
        parts.append(groupsSection("Failures and errors", findings.failures, anchor: "f", detail: detail, folded: findings.causesMerge))
        if run.baseline != nil { parts.append(groupsSection("Known failures (baseline)", findings.known, anchor: "k", detail: detail)) }
        parts.append(groupsSection("Warnings and observations", findings.warnings, anchor: "w", detail: detail,
                                   folded: !findings.failures.isEmpty))
        parts.append(tail)
        parts.append(appendixText)
        return parts
    }

    private func contents(failures: [FindingGroup], warnings: [FindingGroup], known: [FindingGroup]) -> String {
        let failing = Set(failures.flatMap { $0.members.map(\.result.conformanceCase.id) }).count
        let warned = Set(warnings.flatMap { $0.members.map(\.result.conformanceCase.id) }).count
        let entries: [String?] = [
            "[Failed requirements](#failed-requirements)",
            "[Failures (\(failures.count) in \(failing) cases)](#failures-and-errors)",
            run.baseline == nil ? nil : "[Known (\(run.knownCount))](#known-failures-baseline)",
            "[Warnings (\(warnings.count) in \(warned))](#warnings-and-observations)",
            run.catalog.toAttest(for: run.programOutcomes.map(\.program)).isEmpty ? nil : "[To attest](#to-attest)",
            run.attestations.isEmpty ? nil : "[Attested by hand (\(run.attestations.count))](#attested-by-hand)",
            run.count(.skip) == 0 ? "nothing skipped" : "[Skipped (\(run.count(.skip)))](#skipped)",
            "[Provenance](#provenance)", "[Appendix](#appendix)",
        ]
        return "**Contents:** " + entries.compactMap { $0 }.joined(separator: " · ") + "\n\n"
    }

    /// Cuts text to `limit` bytes on a line boundary, saying so.
    static func truncated(_ text: String, limit: Int) -> String {
        let note = "\n\n… [report cut at \(limit / 1024) KiB: see results.json]\n"
        var kept = ""
        var used = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let size = line.utf8.count + 1
            if used + size + note.utf8.count > limit { break }
            kept += line + "\n"
            used += size
        }
        return kept + note
    }

    static let icons: [Verdict: String] = [.pass: "✅", .info: "ℹ️", .warn: "⚠️", .skip: "⏭️", .fail: "❌", .error: "💥"]

    func verdictSection() -> String {
        let total = run.results.count
        let coverage = run.coverage(of: profiles)
        var text = headline(coverage) + "\n\n" + profileTable(coverage)
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
        appendNotes(to: &text)
        return text + (text.hasSuffix("\n") ? "\n" : "\n\n") + attestedLine()
            + "Exit code: \(run.exitStatus.rawValue). Target: \(MarkdownText.inline(run.provenance.target))"
            + (run.provenance.targetLabel.map { " (\(MarkdownText.inline($0)))" } ?? "") + ".\n\n"
    }

    /// The verdict's sentence: what the run's overall verdict says, an uncertified certification or an interrupted
    /// run said instead.
    private func headline(_ coverage: [ProfileCoverage]) -> String {
        let total = run.results.count
        let judged = run.results.filter { $0.verdict != .skip }.count
        let tested = coverage.filter(\.isTested).map(\.profile)
        let scope = tested.isEmpty ? "" : " for " + tested.map { "`\($0)`" }.joined(separator: ", ")
        let skipped = total - judged
        let ran = skipped == 0 ? "all \(total) cases" : "the \(judged) cases that ran (\(skipped) skipped)"
        var text: String
        switch run.overall {
        case .fail where run.count(.fail) == 0:
            text = "**Verdict: ❌ NOT CONFORMANT** — the baseline is out of date: \(run.baseline?.problems.count ?? 0) of its entries "
                + "expired or list failures that no longer happen (a baseline only shrinks)."
        case .fail:
            text = "**Verdict: ❌ NOT CONFORMANT** — \(run.count(.fail)) of \(total) cases violate a MUST or MUST NOT requirement."
        case .error:
            text = total == 0 ? "**Verdict: 💥 INCONCLUSIVE** — no case ran."
                : "**Verdict: 💥 INCONCLUSIVE** — no requirement failed, but \(run.count(.error)) of \(total) cases ended in a target error (crash, timeout or unusable answer)."
        case .skip:
            text = "**Verdict: ⏭️ NOTHING TESTED** — every one of the \(total) cases was skipped, so nothing was checked. This is not a pass."
        case .warn where run.knownCount > 0, .pass where run.knownCount > 0, .info where run.knownCount > 0:
            // Conformant only because the baseline accepts failures: said first, never "every MUST held".
            text = "**Verdict: ✅ CONFORMANT\(scope) with \(run.knownCount) accepted known failure\(run.knownCount == 1 ? "" : "s")** (baseline "
                + "`\(MarkdownText.inline(run.baseline?.path ?? ""))`) — the other checks applied in \(ran) held"
                + (run.count(.warn) > 0 ? "; \(run.count(.warn)) cases break a SHOULD." : ".")
        case .warn:
            text = "**Verdict: ✅ CONFORMANT\(scope), with warnings** — every MUST held in \(ran); \(run.count(.warn)) cases break a SHOULD."
        case .pass, .info:
            text = "**Verdict: ✅ CONFORMANT\(scope)** — every check applied in \(ran) held."
        }
        if run.exitStatus == .certificationIncomplete {
            text = "**Verdict: ⚠️ NOT A CERTIFICATION PASS** — no case failed, but \(run.untestedCount) of \(total) cases were not judged, and a "
                + "certification judges every case. Missing: " + certificationShortfall(coverage) + "."
        }
        if run.incomplete {
            // An interrupted run never reads as a verdict on what it did not reach.
            text = "**Verdict: ⏸️ INCOMPLETE** — the run was interrupted: \(total) cases ran"
                + (run.selectedCount.map { " of \($0) selected" } ?? "") + "; what follows judges only those, and nothing about the rest."
        }
        return text
    }

    /// The table of profiles: each one's verdict, counts and whether it was tested; the totals when more than one.
    private func profileTable(_ coverage: [ProfileCoverage]) -> String {
        let total = run.results.count
        var text = ""
        let shown: [Verdict] = [.pass, .info, .warn, .fail, .error, .skip]
        // With a baseline, the failures it accepts are counted apart, as "known", and under no verdict.
        let knownColumn = run.baseline != nil
        text += "| Profile | Verdict | Cases | " + shown.map { "\(Self.icons[$0] ?? "") \($0.rawValue)" }.joined(separator: " | ")
            + (knownColumn ? " | known" : "") + " | Tested |\n"
        text += "| --- | --- | ---: | " + shown.map { _ in "---:" }.joined(separator: " | ") + (knownColumn ? " | ---:" : "") + " | --- |\n"
        for entry in coverage {
            let state: String
            if let selected = entry.selectedBeforeInterruption, entry.total < selected {
                state = "**\(entry.total == 0 ? "NOT REACHED" : "PARTLY")**: \(MarkdownText.inline(entry.reason, limit: 300))"
            } else if !entry.isTested {
                state = "**NOT TESTED**: \(MarkdownText.inline(entry.reason, limit: 300))"
            } else if entry.judged < entry.total {
                state = "partly: \(entry.total - entry.judged) skipped (\(MarkdownText.inline(entry.reason, limit: 300)))"
            } else {
                state = "yes"
            }
            let results = run.results.filter { $0.conformanceCase.profile.rawValue == entry.profile }
            let overall = RunResult(results: results, catalog: run.catalog, provenance: run.provenance).overall
            let verdict = results.isEmpty ? "—" : "\(Self.icons[overall] ?? "") \(overall.rawValue)"
            let counts = shown.map { verdict in String(results.filter { $0.verdict == verdict && !$0.isKnown }.count) }
                + (knownColumn ? [String(results.filter(\.isKnown).count)] : [])
            text += "| `\(entry.profile)` | \(verdict) | \(entry.total) | " + counts.joined(separator: " | ") + " | \(state) |\n"
        }
        if coverage.count != 1 {
            text += "| **all** | | **\(total)** | " + shown.map { "**\(run.count($0))**" }.joined(separator: " | ")
                + (knownColumn ? " | **\(run.knownCount)**" : "") + " | |\n"
        }
        return text
    }

    /// What follows the table: an interruption, unreachable targets, the certification line and the baseline.
    private func appendNotes(to text: inout String) {
        if run.incomplete { text += "\n\n**This run is incomplete:** it was interrupted; only the cases listed here ran, and no verdict is given." }
        for (target, count) in run.unreachableTargets {
            text += (text.hasSuffix("\n") ? "\n" : "\n\n") + "**Target unreachable:** \(MarkdownText.inline(target.reason)) — "
                + "\(count) case\(count == 1 ? "" : "s") not sent."
        }
        if run.provenance.certification {
            text += (text.hasSuffix("\n") ? "\n" : "\n\n") + certificationLine()
        }
        if let baseline = run.baseline {
            text += (text.hasSuffix("\n") ? "\n" : "\n\n") + "**Baseline** `\(MarkdownText.inline(baseline.path))` (\(baseline.entries) entries): \(run.knownCount) "
                + "failure\(run.knownCount == 1 ? "" : "s") accepted as known (not counted above; see Known failures)."
            for problem in baseline.problems { text += "\n- ❌ \(MarkdownText.inline(problem.message))" }
            if !baseline.unexercised.isEmpty {
                text += "\n- Not exercised by this run: " + baseline.unexercised.map { MarkdownText.inline($0.subject.description) }.joined(separator: ", ")
            }
        }
    }

    /// What a certification run left unjudged: the profiles not tested and the reasons cases were skipped.
    private func certificationShortfall(_ coverage: [ProfileCoverage]) -> String {
        var missing: [String] = coverage.filter { !$0.isTested }.map { "profile `\($0.profile)` not tested (\(MarkdownText.inline($0.reason, limit: 300)))" }
        for entry in coverage where entry.isTested && entry.judged < entry.total {
            missing.append("`\(entry.profile)`: \(entry.total - entry.judged) skipped (\(MarkdownText.inline(entry.reason, limit: 300)))")
        }
        for result in run.results where result.notJudged != nil {
            missing.append("`\(result.conformanceCase.id)` judged nothing it tests (see Skipped)")
        }
        return missing.joined(separator: "; ")
    }

    /// For a case not applicable to this target: the conditions (`applies_when`) of what it tests, in the catalog's
    /// words.
    private func conditionsUnmet(by result: CaseResult) -> String? {
        guard result.conditionUnmet else { return nil }
        let setup = result.conformanceCase.setupRequirements
        let conditions = result.conformanceCase.requirements.compactMap { reference -> String? in
            guard !setup.contains(reference.id), let condition = run.catalog[reference.id]?.appliesWhen else { return nil }
            return "\(reference.id) applies only when \(condition)"
        }
        guard !conditions.isEmpty else { return nil }
        return "not applicable to this target (not missing from a certification): " + conditions.joined(separator: "; ")
            + " — " + (result.message ?? "")
    }

    /// One line per profile and reason, however many cases it skipped (or judged nothing they test).
    private func skippedSection() -> String {
        var text = "## Skipped\n\n"
        var lines: [(profile: String, reason: String, count: Int)] = []
        for result in run.results where result.verdict == .skip || result.notJudged != nil {
            let profile = result.conformanceCase.profile.rawValue
            let reason = result.notJudged.map { "\(result.verdict.rawValue) on the suite's own finding, " + $0 }
                ?? conditionsUnmet(by: result) ?? result.message ?? "skipped"
            if let index = lines.firstIndex(where: { $0.profile == profile && $0.reason == reason }) {
                lines[index].count += 1
            } else {
                lines.append((profile, reason, 1))
            }
        }
        if lines.isEmpty { return "" }  // the contents line says "nothing skipped"
        for line in lines {
            text += "- `\(line.profile)`: \(line.count) case\(line.count == 1 ? "" : "s") — \(MarkdownText.inline(line.reason, limit: 500))\n"
        }
        return text + "\n"
    }

    private func provenanceSection() -> String {
        let provenance = run.provenance
        var text = "## Provenance\n\n"
        let samples: String = provenance.samples.map { "\($0) per sampling check (--samples)" } ?? "as each case states"
        var rows: [(String, String)] = [
            ("Suite version", provenance.suiteVersion),
            ("Case files", "\(provenance.caseFileCount) files, sha256 `\(provenance.caseDigest)`"),
            ("Seed", String(provenance.seed)),
            ("Target", provenance.target),
        ]
        if let label = provenance.targetLabel { rows.append(("Target label", label)) }
        rows += [
            ("Mode", provenance.mode),
            ("Jobs", String(provenance.jobs)),
            ("Filter", provenance.filter ?? "(none)"),
            ("Samples", samples),
            ("TLS", provenance.transport.isEmpty ? "not used: every endpoint of this run is plain http"
                : provenance.transport.joined(separator: "; ")),
        ]
        if let startup = provenance.handlerStartup { rows.append(("Handler start-up", startup)) }
        if let digest = provenance.executableSHA256 { rows.append(("Executable", "sha256 `\(digest)`")) }
        if let commit = provenance.sourceCommit { rows.append(("Built from", "commit `\(commit)`")) }
        if let platform = provenance.platform { rows.append(("Platform", platform)) }
        if let toolchain = provenance.toolchain { rows.append(("Toolchain", toolchain)) }
        for file in provenance.adapterFiles { rows.append(("Adapter", file.summary)) }
        if !reproducible {
            if let runBy = provenance.runBy { rows.append(("Run by", runBy)) }
            if let host = provenance.host { rows.append(("Host", host)) }
            rows += [("Started (UTC)", provenance.startedAt), ("Wall time", ReportFormatting.seconds(provenance.duration) + " s")]
            if let measured = provenance.handlerStartupMeasured { rows.append(("Handler start-up times", measured)) }
        }
        text += "Reproduce the whole run with:\n\n" + MarkdownText.codeBlock(provenance.command)
        text += "\n<details><summary>Suite, seed, target and times</summary>\n\n| | |\n| --- | --- |\n"
        for (name, value) in rows {
            // The target as configured, whole: a reviewer must be able to tell which deployment was judged.
            // Digests and commits are shown as code, as written here, when they are what they claim (hex): a merged
            // results.json could carry anything there.
            let parts = value.split(separator: "`", omittingEmptySubsequences: false)
            let isOwnCode = ["Case files", "Executable", "Built from"].contains(name) && parts.count == 3 && parts[2].isEmpty
                && parts[0].allSatisfy { $0.isLetter || $0.isNumber || $0 == " " || $0 == "," } && parts[1].allSatisfy(\.isHexDigit)
            let shown = isOwnCode ? value : MarkdownText.inline(value, limit: name == "Target" ? 65_536 : 400)
            text += "| \(name) | \(shown) |\n"
        }
        return text + "\n</details>\n\n"
    }
}
