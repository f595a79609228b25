import AppFlipBase
import AppFlipModel

/// The folded appendix: the requirement matrix with what no case covers, the decisions where sources conflict,
/// the counts per case group, and every case.
extension MarkdownReport {
    /// The appendix's parts, each rendered at most once whatever the number of levels tried.
    struct Appendix {
        let report: MarkdownReport
        private let fixed: String
        /// Whether the list of every case can fit at all: each row holds at least the case's ID and 20 bytes of
        /// markup, so a list whose IDs alone pass the size limit is never rendered.
        private let everyCaseFits: Bool
        private var matrix: String?
        /// The list of every case once rendered: nil inside when it passed the size limit.
        private var everyCase: String??

        init(report: MarkdownReport) {
            self.report = report
            fixed = report.decisions() + report.groupCounts()
            everyCaseFits = report.run.results.reduce(0) { $0 + $1.conformanceCase.id.utf8.count + 20 } <= MarkdownReport.sizeLimit
        }

        /// The appendix at `detail`, or nil when the level lists every case and that list cannot fit (it alone passes
        /// the size limit: it is rendered only that far, never whole, whatever the number of cases).
        mutating func text(_ detail: Detail) -> String? {
            if detail.listsEveryCase && !everyCaseFits { return nil }
            var text = "## Appendix\n\n"
            if detail.hasMatrix {
                let rendered = matrix ?? report.matrix()
                matrix = rendered
                text += rendered
            }
            text += fixed
            if detail.listsEveryCase {
                let rendered = everyCase ?? report.everyCase(limit: MarkdownReport.sizeLimit)
                everyCase = rendered
                guard let rendered else { return nil }
                text += rendered
            }
            return text
        }
    }

    fileprivate func matrix() -> String {
        let outcomes = findings?.outcomes ?? run.requirementOutcomes
        let judged = outcomes.filter(\.isJudged).count
        var text = "<details><summary>A. Requirement matrix: \(judged) of \(outcomes.count) requirements judged</summary>\n\n"
        let planned = outcomes.filter { $0.requirement.planned != nil }.count
        let unobservable = outcomes.filter { $0.requirement.notObservable != nil }.count
        text +=
            "This run judged \(judged) of the \(outcomes.count) requirements in the catalog; \(planned) are planned (no case "
            + "covers them yet) and \(unobservable) cannot be observed headlessly"
            + (run.attestations.isEmpty ? "" : " (\(run.attestations.count) of them attested by hand, not counted as judged)")
            + ". Every row is listed, covered or not.\n\n"
        text += "| ID | Level | Requirement | Source | Cases | Result |\n| --- | --- | --- | --- | ---: | --- |\n"
        var uncovered: [Requirement] = []
        for outcome in outcomes {
            let requirement = outcome.requirement
            let coverage = MatrixCoverage(outcome, in: run, profiles: profiles)
            if outcome.verdict == nil { uncovered.append(requirement) }
            let result =
                switch coverage {
                case .judged(let verdict): "\(Self.icons[verdict] ?? "") \(verdict.rawValue)"
                case .planned: "not covered: planned"
                case .attested(let attestation):
                    "✍️ attested by hand: \(Self.attestedIcons[attestation.verdict] ?? "") \(attestation.verdict.rawValue)"
                case .notObservable: "not covered: not observable"
                case .profileNotRun(let profile): "not run (profile `\(profile)` not in this run)"
                case .notCovered: "not covered in this run"
                }
            text += "| \(requirement.id) | \(requirement.level.rawValue) | \(MarkdownText.inline(requirement.title)) | "
            text += "\(CitationLinks.markdown(for: requirement.id, in: run.catalog)) | \(outcome.caseCount) | \(result) |\n"
        }
        if !uncovered.isEmpty {
            text += "\nRequirements no case in this run covers:\n\n"
            for requirement in uncovered {
                let reason =
                    requirement.uncoveredReason
                    ?? (profiles.contains(requirement.profile)
                        ? "No case in this run names it (check --filter and the case files)."
                        : "Its profile `\(requirement.profile)` was not part of this run.")
                text +=
                    "- **\(requirement.id)** (\(requirement.level.rawValue)) \(MarkdownText.inline(requirement.title)): \(MarkdownText.inline(reason, limit: 1000))\n"
            }
        }
        return text + "\n</details>\n\n"
    }

    fileprivate func decisions() -> String {
        let decided = run.catalog.requirements.filter { profiles.contains($0.profile) && ($0.decision != nil || $0.appliesWhen != nil) }
        guard !decided.isEmpty else { return "" }
        var text = "<details><summary>B. Conditions, and decisions where sources conflict (\(decided.count))</summary>\n\n"
        for requirement in decided {
            let condition = requirement.appliesWhen.map { "applies only when " + MarkdownText.inline($0, limit: 500) + ". " } ?? ""
            text += "- **\(requirement.id)**: \(condition)\(MarkdownText.inline(requirement.decision ?? "", limit: 2000))\n"
        }
        return text + "\n</details>\n\n"
    }

    fileprivate func groupCounts() -> String {
        var text = "<details><summary>C. Cases per group</summary>\n\n"
        text += "| Group | Cases | pass | info | warn | skip | fail | error |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
        for group in ReportFormatting.groups(run.results) {
            let counts = Verdict.allCases.map { verdict in group.results.filter { $0.verdict == verdict }.count }
            text += "| `\(group.name)` | \(group.results.count) | " + counts.map(String.init).joined(separator: " | ") + " |\n"
        }
        return text + "\n</details>\n\n"
    }

    /// The list of every case, or nil once it passes `limit` bytes (it is not rendered further).
    fileprivate func everyCase(limit: Int) -> String? {
        // Written as bytes, row by row (a long run lists thousands), and made text once.
        var text = ByteBuffer(capacity: 1 << 16)
        text.append(utf8: "<details><summary>D. Every case (\(run.results.count))</summary>\n\n")
        text.append("| Case | Verdict | Requirements | Time (s) |\n| --- | --- | --- | ---: |\n")
        for result in run.results {
            let conformanceCase = result.conformanceCase
            text.append("| `")
            text.append(utf8: conformanceCase.id)
            text.append("` | ")
            text.append(utf8: Self.icons[result.verdict] ?? "")
            text.append(" ")
            text.append(utf8: result.verdict.rawValue)
            text.append(" | ")
            ReportFormatting.appendRequirementList(CaseResult.requirements(of: conformanceCase, outlines: result.checkOutlines), to: &text)
            text.append(" | ")
            ReportFormatting.appendSeconds(reproducible ? 0 : result.duration, to: &text)
            text.append(" |\n")
            if text.count > limit { return nil }
        }
        text.append("\n</details>\n")
        return text.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }
}
