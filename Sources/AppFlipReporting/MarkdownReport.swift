import AppFlipModel

/// Writes a run as a Markdown report for a certification reviewer: the verdict first, then counts, findings
/// with evidence, the requirement matrix and the run's provenance.
package struct MarkdownReport: Sendable {
    package var run: RunResult
    /// The profiles this run covered; the matrix lists their requirements.
    package var profiles: [String]
    /// When true, times and the start timestamp are left out, so the same inputs give the same bytes.
    package var reproducible: Bool

    /// The run's findings, when the caller grouped them already (a report set groups them once for both reports).
    package var findings: ReportFindings?

    package init(run: RunResult, profiles: [String], reproducible: Bool = false, findings: ReportFindings? = nil) {
        self.run = run
        self.profiles = profiles
        self.reproducible = reproducible
        self.findings = findings
    }

    /// GitHub's limit for a job summary, and a sensible ceiling for any report a browser renders at once.
    package static let sizeLimit = 1 << 20

    /// The report, laid out for a reviewer: the verdict per profile, the failed requirements, each distinct failure
    /// once (identical ones grouped, evidence folded), skips in one line per reason, counts and provenance; the
    /// requirement matrix, decisions and every case in a folded appendix. Kept under `sizeLimit`: when a run would
    /// exceed it, the least useful parts are cut first and the report says what was cut.
    package func render() -> String {
        // The parts no level changes are rendered once; each level's text is measured before it is joined.
        let findings = self.findings ?? ReportFindings(run: run)
        let head = "# AppFlip Conformance report\n\n" + certificationHeadline() + verdictSection()
        let body =
            contents(failures: findings.failures, warnings: findings.warnings, known: findings.known)
            + (findings.causesMerge ? rootCausesSection(findings.causes) : "") + failedRequirementsSection(findings.failures)
        let tail = toAttestSection() + attestedSection() + skippedSection() + provenanceSection()
        var appendix = Appendix(report: self)
        var cuts: [String] = []
        for level in Detail.allCases {
            if let parts = compose(level, cuts: cuts, head: head, body: body, findings: findings, tail: tail, appendix: &appendix),
                parts.reduce(0, { $0 + $1.utf8.count }) <= Self.sizeLimit
            {
                return parts.joined()
            }
            cuts.append(level.cutBeyond)
        }
        let parts =
            compose(
                .minimal, cuts: cuts + ["the report was still too large and ends early"], head: head, body: body,
                findings: findings, tail: tail, appendix: &appendix) ?? []
        return Self.truncated(parts.joined(), limit: Self.sizeLimit)
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
    private func compose(
        _ detail: Detail, cuts: [String], head: String, body: String, findings: ReportFindings, tail: String,
        appendix: inout Appendix
    ) -> [String]? {
        guard let appendixText = appendix.text(detail) else { return nil }
        var parts = [head]
        if !cuts.isEmpty {
            parts.append(
                "> **Shortened to stay under \(Self.sizeLimit / 1024) KiB:** \(cuts.joined(separator: "; ")). results.json and junit.xml "
                    + "have everything.\n\n")
        }
        parts.append(body)
        // With root causes above (fewer than the findings), the findings in detail are one click away: the first
        // screen holds the verdict, the causes and the failed requirements.
        parts.append(groupsSection("Failures and errors", findings.failures, anchor: "f", detail: detail, folded: findings.causesMerge))
        if run.baseline != nil { parts.append(groupsSection("Known failures (baseline)", findings.known, anchor: "k", detail: detail)) }
        parts.append(
            groupsSection(
                "Warnings and observations", findings.warnings, anchor: "w", detail: detail,
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
            text +=
                (text.hasSuffix("\n") ? "\n" : "\n\n")
                + "**⚙️ Configuration problem** (\(spoiled) cases could not be judged): \(MarkdownText.inline(problem, limit: 500))"
        }
        let suiteFaults = run.results.filter { $0.suiteFault != nil }
        if let first = suiteFaults.first?.suiteFault {
            text =
                "**Verdict: 🛠️ SUITE ERROR** — the suite itself ran out of resources for \(suiteFaults.count) of \(total) cases "
                + "(\(MarkdownText.inline(first, limit: 200))). Those cases judged nothing and blame nothing on the target; rerun "
                + "with fewer `--jobs` or a higher `ulimit -n`. No verdict is given for this run."
        }
        appendNotes(to: &text)
        return text + (text.hasSuffix("\n") ? "\n" : "\n\n") + attestedLine()
            + "Exit code: \(run.exitStatus.rawValue). Target: \(MarkdownText.inline(run.provenance.target))"
            + (run.provenance.targetLabel.map { " (\(MarkdownText.inline($0)))" } ?? "") + ".\n\n"
    }

    /// The verdict's sentence (`ReportHeadline`), in Markdown: the label bold, profiles and paths as code.
    private func headline(_ coverage: [ProfileCoverage]) -> String {
        let headline = ReportHeadline(run: run, coverage: coverage)
        return "**Verdict: \(headline.icon) \(headline.label.markdown)**" + (headline.aside.map { " " + $0.markdown } ?? "")
            + " — " + headline.detail.markdown
    }

    /// The table of profiles: each one's verdict, counts and whether it was tested; the totals when more than one.
    private func profileTable(_ coverage: [ProfileCoverage]) -> String {
        let total = run.results.count
        var text = ""
        let shown: [Verdict] = [.pass, .info, .warn, .fail, .error, .skip]
        // With a baseline, the failures it accepts are counted apart, as "known", and under no verdict.
        let knownColumn = run.baseline != nil
        text +=
            "| Profile | Verdict | Cases | " + shown.map { "\(Self.icons[$0] ?? "") \($0.rawValue)" }.joined(separator: " | ")
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
            let counts =
                shown.map { verdict in String(results.filter { $0.verdict == verdict && !$0.isKnown }.count) }
                + (knownColumn ? [String(results.filter(\.isKnown).count)] : [])
            text += "| `\(entry.profile)` | \(verdict) | \(entry.total) | " + counts.joined(separator: " | ") + " | \(state) |\n"
        }
        if coverage.count != 1 {
            text +=
                "| **all** | | **\(total)** | " + shown.map { "**\(run.count($0))**" }.joined(separator: " | ")
                + (knownColumn ? " | **\(run.knownCount)**" : "") + " | |\n"
        }
        return text
    }

    /// What follows the table: an interruption, unreachable targets, the certification line and the baseline.
    private func appendNotes(to text: inout String) {
        if run.incomplete { text += "\n\n**This run is incomplete:** it was interrupted; only the cases listed here ran, and no verdict is given." }
        for (target, count) in run.unreachableTargets {
            text +=
                (text.hasSuffix("\n") ? "\n" : "\n\n") + "**Target unreachable:** \(MarkdownText.inline(target.reason)) — "
                + "\(count) case\(count == 1 ? "" : "s") not sent."
        }
        if run.provenance.certification {
            text += (text.hasSuffix("\n") ? "\n" : "\n\n") + certificationLine()
        }
        if let baseline = run.baseline {
            text +=
                (text.hasSuffix("\n") ? "\n" : "\n\n")
                + "**Baseline** `\(MarkdownText.inline(baseline.path))` (\(baseline.entries) entries): \(run.knownCount) "
                + "failure\(run.knownCount == 1 ? "" : "s") accepted as known (not counted above; see Known failures)."
            for problem in baseline.problems { text += "\n- ❌ \(MarkdownText.inline(problem.message))" }
            if !baseline.unexercised.isEmpty {
                text +=
                    "\n- Not exercised by this run: "
                    + baseline.unexercised.map { MarkdownText.inline($0.subject.description) }.joined(separator: ", ")
            }
        }
    }

    /// One line per profile and reason, however many cases it skipped (or judged nothing they test).
    private func skippedSection() -> String {
        let lines = SkipLine.lines(of: run)
        if lines.isEmpty { return "" }  // the contents line says "nothing skipped"
        var text = "## Skipped\n\n"
        for line in lines {
            text += "- `\(line.profile)`: \(line.count) case\(line.count == 1 ? "" : "s") — \(MarkdownText.inline(line.reason, limit: 500))\n"
        }
        return text + "\n"
    }

    private func provenanceSection() -> String {
        let provenance = run.provenance
        var text = "## Provenance\n\n"
        let rows = ProvenanceRows.rows(provenance, reproducible: reproducible)
        text += "Reproduce the whole run with:\n\n" + MarkdownText.codeBlock(provenance.command)
        text += "\n<details><summary>Suite, seed, target and times</summary>\n\n| | |\n| --- | --- |\n"
        for (name, value) in rows {
            // The target as configured, whole: a reviewer must be able to tell which deployment was judged.
            let shown = ProvenanceRows.ownCode(name, value) != nil ? value : MarkdownText.inline(value, limit: name == "Target" ? 65_536 : 400)
            text += "| \(name) | \(shown) |\n"
        }
        return text + "\n</details>\n\n"
    }
}
