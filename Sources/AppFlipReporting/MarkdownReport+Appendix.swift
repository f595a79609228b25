import AppFlipModel

/// The folded appendix: the requirement matrix with what no case covers, the decisions where sources conflict,
/// the counts per case group, and every case.
extension MarkdownReport {
    func appendix(_ detail: Detail) -> String {
        var text = "## Appendix\n\n"
        if detail.hasMatrix { text += matrix() }
        text += decisions()
        text += groupCounts()
        if detail.listsEveryCase { text += everyCase() }
        return text
    }

    private func matrix() -> String {
        let outcomes = run.requirementOutcomes
        let judged = outcomes.filter { $0.cases.contains { $0.verdict != .skip } }.count
        var text = "<details><summary>A. Requirement matrix: \(judged) of \(outcomes.count) requirements judged</summary>\n\n"
        let planned = outcomes.filter { $0.requirement.planned != nil }.count
        let unobservable = outcomes.filter { $0.requirement.notObservable != nil }.count
        text += "This run judged \(judged) of the \(outcomes.count) requirements in the catalog; \(planned) are planned (no case "
            + "covers them yet) and \(unobservable) cannot be observed headlessly. Every row is listed, covered or not.\n\n"
        text += "| ID | Level | Requirement | Source | Cases | Result |\n| --- | --- | --- | --- | ---: | --- |\n"
        var uncovered: [Requirement] = []
        for outcome in outcomes {
            let requirement = outcome.requirement
            let result: String
            if let verdict = outcome.verdict {
                result = "\(Self.icons[verdict] ?? "") \(verdict.rawValue)"
            } else {
                uncovered.append(requirement)
                if requirement.planned != nil {
                    result = "not covered: planned"
                } else if requirement.notObservable != nil {
                    result = "not covered: not observable"
                } else if !profiles.contains(requirement.profile) {
                    result = "not run (profile `\(requirement.profile)` not in this run)"
                } else {
                    result = "not covered in this run"
                }
            }
            text += "| \(requirement.id) | \(requirement.level.rawValue) | \(MarkdownText.inline(requirement.title)) | "
            text += "\(CitationLinks.markdown(for: requirement.id, in: run.catalog)) | \(outcome.cases.count) | \(result) |\n"
        }
        if !uncovered.isEmpty {
            text += "\nRequirements no case in this run covers:\n\n"
            for requirement in uncovered {
                let reason = requirement.uncoveredReason
                    ?? (profiles.contains(requirement.profile) ? "No case in this run names it (check --filter and the case files)."
                        : "Its profile `\(requirement.profile)` was not part of this run.")
                text += "- **\(requirement.id)** (\(requirement.level.rawValue)) \(MarkdownText.inline(requirement.title)): \(MarkdownText.inline(reason, limit: 1000))\n"
            }
        }
        return text + "\n</details>\n\n"
    }

    private func decisions() -> String {
        let decided = run.catalog.requirements.filter { profiles.contains($0.profile) && $0.decision != nil }
        guard !decided.isEmpty else { return "" }
        var text = "<details><summary>B. Decisions where sources conflict (\(decided.count))</summary>\n\n"
        for requirement in decided {
            text += "- **\(requirement.id)**: \(MarkdownText.inline(requirement.decision ?? "", limit: 2000))\n"
        }
        return text + "\n</details>\n\n"
    }

    private func groupCounts() -> String {
        var text = "<details><summary>C. Cases per group</summary>\n\n"
        text += "| Group | Cases | pass | info | warn | skip | fail | error |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
        for group in ReportFormatting.groups(run.results) {
            let counts = Verdict.allCases.map { verdict in group.results.filter { $0.verdict == verdict }.count }
            text += "| `\(group.name)` | \(group.results.count) | " + counts.map(String.init).joined(separator: " | ") + " |\n"
        }
        return text + "\n</details>\n\n"
    }

    private func everyCase() -> String {
        var text = "<details><summary>D. Every case (\(run.results.count))</summary>\n\n"
        text += "| Case | Verdict | Requirements | Time (s) |\n| --- | --- | --- | ---: |\n"
        for result in run.results {
            text += "| `\(result.conformanceCase.id)` | \(Self.icons[result.verdict] ?? "") \(result.verdict.rawValue) | "
            text += "\(ReportFormatting.requirementList(result)) | \(ReportFormatting.seconds(reproducible ? 0 : result.duration)) |\n"
        }
        return text + "\n</details>\n"
    }
}
