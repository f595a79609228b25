import AppFlipModel

/// The failed-requirements table and the finding groups: each distinct failure once, with one representative's
/// expected and observed, the cases it covers, a command that reproduces it, and its evidence folded.
extension MarkdownReport {
    /// `linked`: whether the rows link to their finding sections (not in the summary, which has none).
    func failedRequirementsSection(
        _ groups: [FindingGroup], heading: String = "## Failed requirements", linked: Bool = true,
        limit: Int = .max
    ) -> String {
        var text = heading + "\n\n"
        var rows: [(reference: RequirementReference, cases: Set<String>, first: FindingGroup, anchor: Int)] = []
        for (index, group) in groups.enumerated() {
            guard case .check(let reference, _) = group.kind, group.verdict == .fail else { continue }
            let ids = Set(group.members.map(\.result.conformanceCase.id))
            if let row = rows.firstIndex(where: { $0.reference == reference }) {
                rows[row].cases.formUnion(ids)
            } else {
                rows.append((reference, ids, group, index + 1))
            }
        }
        let errorGroups = groups.enumerated().filter { $0.element.kind == .targetError }
        if rows.isEmpty {
            text += run.count(.fail) == 0 ? "None: no MUST or MUST NOT was violated.\n\n" : "None named (see the failures below).\n\n"
        } else {
            text += "| Requirement | Level | Failing cases | Expected | Observed (first case) |" + (linked ? " Details |" : "") + "\n"
            text += "| --- | --- | ---: | --- | --- |" + (linked ? " --- |" : "") + "\n"
            for row in rows.prefix(limit) {
                guard case .check(_, let expected) = row.first.kind else { continue }
                let title = run.catalog[row.reference.id].map { " — " + MarkdownText.inline($0.title) } ?? ""
                text += "| **\(row.reference.id)**\(title) | \(row.reference.level.rawValue) | \(row.cases.count) | "
                text += "\(MarkdownText.inline(expected, limit: 80)) | \(MarkdownText.inline(row.first.representative.observed, limit: 80)) | "
                text += linked ? "[#\(row.anchor)](#f\(row.anchor)) |\n" : "\n"
            }
            if rows.count > limit { text += "\nand \(rows.count - limit) more requirements (see report.md).\n" }
            text += "\n"
        }
        if !errorGroups.isEmpty {
            let cases = Set(errorGroups.flatMap { $0.element.members.map(\.result.conformanceCase.id) }).count
            text +=
                (cases == 1
                    ? "1 case ended in a target error before it could be judged"
                    : "\(cases) cases ended in a target error before they could be judged")
                + (linked ? ": " + errorGroups.map { "[#\($0.offset + 1)](#f\($0.offset + 1))" }.joined(separator: ", ") : "") + ".\n\n"
        }
        return text
    }

    /// The failures by root cause (`RootCause`): one line each, the most widespread first, before anything else, so a
    /// reviewer reads one bug as one finding however many requirements and cases it breaks. Shown when causes are
    /// fewer than the finding groups (otherwise the failed-requirements table says the same).
    func rootCausesSection(_ causes: [RootCause]) -> String {
        var text = "## Root causes\n\n"
        for (index, cause) in causes.prefix(10).enumerated() {
            let first = cause.cases[0].conformanceCase
            let requirements = cause.requirements.map { "\($0.reference.id) ([\($0.cases)](#f\($0.group + 1)))" }.joined(separator: ", ")
            text +=
                "\(index + 1). ❌ **\(MarkdownText.inline(cause.observed, limit: 160))** — \(cause.cases.count) case\(cause.cases.count == 1 ? "" : "s") "
                + "under \(cause.requirements.count) requirement\(cause.requirements.count == 1 ? "" : "s"): \(requirements); first `\(first.id)`\n"
        }
        if causes.count > 10 { text += "\nand \(causes.count - 10) more (see the failures below).\n" }
        return text + "\n"
    }

    /// `folded`: the groups go in one folded block (warnings, when failures come first): the first screen is for what fails.
    func groupsSection(_ title: String, _ groups: [FindingGroup], anchor: String, detail: Detail, folded: Bool = false) -> String {
        var text = "## \(title)\n\n"
        if groups.isEmpty { return text + "None.\n\n" }
        if folded {
            let cases = Set(groups.flatMap { $0.members.map(\.result.conformanceCase.id) }).count
            text +=
                "<details><summary>Each of the \(groups.count) finding\(groups.count == 1 ? "" : "s") in \(cases) case\(cases == 1 ? "" : "s"), with evidence: "
                + groups.map { group -> String in
                    if case .check(let reference, _) = group.kind { return reference.id }
                    return "target error"
                }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.joined(separator: ", ") + "</summary>\n\n"
        }
        for (index, group) in groups.enumerated() {
            text += section(
                group, anchor: "\(anchor)\(index + 1)", number: index + 1, withEvidence: index < detail.groupsWithEvidence,
                casesShown: detail.casesPerGroup)
        }
        return text + (folded ? "</details>\n\n" : "")
    }

    private func section(_ group: FindingGroup, anchor: String, number: Int, withEvidence: Bool, casesShown: Int) -> String {
        let first = group.representative.result
        let count = group.members.count
        let icon = Self.icons[group.verdict] ?? ""
        var text = ""
        switch group.kind {
        case .check(let reference, let expected):
            let title =
                (run.catalog[reference.id].map { " — " + MarkdownText.inline($0.title) } ?? "")
                + (group.headingPart.map { ": " + MarkdownText.inline($0, limit: 120) } ?? "")
            text += "### <a id=\"\(anchor)\"></a>\(number). \(icon) \(reference)\(title) (\(count) case\(count == 1 ? "" : "s"))\n\n"
            let observed =
                MarkdownText.inline(group.representative.observed, limit: 600)
                + (count > 1 ? " (in all \(count), alike)" : "")
            // Short enough for one line: expected and observed side by side.
            let together = expected.count + observed.count < 100
            text += "- **Expected:** \(MarkdownText.inline(expected, limit: 600))" + (together ? " · " : "\n- ") + "**Observed:** \(observed)\n"
            let sources = CitationLinks.markdown(for: reference.id, in: run.catalog)
            if !sources.isEmpty { text += "- **Sources:** \(sources)\n" }
            if let quote = run.catalog[reference.id]?.quote {
                text += "- **\(MarkdownText.inline(quote.citation.description)) says:** “\(MarkdownText.inline(quote.text, limit: 600))”\n"
            }
            if let attested = run.attestation(companionOf: reference.id) {
                text +=
                    "- **Attested by hand for \(attested.requirement)** (read beside this finding; a person's word, not the suite's): "
                    + "**\(attested.verdict.rawValue)** by \(MarkdownText.inline(attested.by, limit: 200)) on \(attested.date): "
                    + MarkdownText.inline(attested.note, limit: 600) + "\n"
            }
        case .targetError, .suiteError:
            let what = group.kind == .suiteError ? "Suite error, not the target's" : "Target error"
            text += "### <a id=\"\(anchor)\"></a>\(number). \(icon) \(what) (\(count) case\(count == 1 ? "" : "s"))\n\n"
            text +=
                "- **What happened:** \(MarkdownText.inline(group.representative.observed, limit: 600))"
                + (count > 1 ? " (in `\(first.conformanceCase.id)`; the others alike)" : "") + "\n"
            text += "- **Requirements these cases check:** \(ReportFormatting.requirementList(first))\n"
        }
        for entry in first.knownBy {
            text += "- **Accepted by the baseline:** \(MarkdownText.inline(entry.summary, limit: 600))\n"
        }
        // The command that reproduces the first case goes with its evidence, folded: the unfolded report stays short.
        let reproduce = run.provenance.command(onlyCase: first.conformanceCase.id).map {
            "Reproduce `\(first.conformanceCase.id)` alone:\n\n" + MarkdownText.codeBlock($0) + "\n"
        }
        let summary =
            (withEvidence ? (count == 1 ? "Evidence" : "Evidence from one, and all \(count) cases") : count > 1 ? "All \(count) cases" : "Reproduce")
            + (reproduce == nil || !withEvidence && count == 1 ? "" : ", and how to reproduce")
        let shown = group.members.prefix(casesShown)
        guard withEvidence || count > 1 || reproduce != nil else { return text + "\n" }
        text += "\n<details><summary>\(summary)</summary>\n\n"
        if let reproduce { text += reproduce }
        if withEvidence {
            text += "Evidence from `\(first.conformanceCase.id)`:\n\n" + evidence(first) + "\n"
        }
        if count > 1 {
            text += "| Case | Case file | Observed |\n| --- | --- | --- |\n"
            for member in shown {
                text +=
                    "| `\(member.result.conformanceCase.id)` | `\(ReportFormatting.location(member.result.conformanceCase))` | "
                    + "\(MarkdownText.inline(member.observed, limit: 200)) |\n"
            }
            if count > shown.count { text += "\n\(count - shown.count) more not listed here (see results.json).\n" }
        }
        text += "\n</details>\n"
        return text + "\n"
    }

    /// What the case sent and received, and which of its checks could not be judged and why.
    private func evidence(_ result: CaseResult) -> String {
        var text = "Case file: `\(ReportFormatting.location(result.conformanceCase))` (scenario `\(result.conformanceCase.scenario.rawValue)`)\n\n"
        if result.verdict == .fail, let message = result.message {
            text += "Then: \(MarkdownText.inline(message))\n\n"
        }
        // One line per requirement and reason: "AF-LINK-006 MUST: 3 checks not judged — nothing was opened …".
        let notJudged = ReportFormatting.notJudged(result)
        for entry in notJudged {
            text +=
                "- \(entry.requirement): \(entry.count == 1 ? "1 check" : "\(entry.count) checks") not judged — \(MarkdownText.inline(entry.reason))\n"
        }
        if !notJudged.isEmpty { text += "\n" }
        var evidence = result.evidence.link.isEmpty ? "" : "link: \(result.evidence.link)\n"
        if !result.evidence.answer.isEmpty { evidence += "answer: \(result.evidence.answer)\n" }
        for exchange in result.evidence.exchanges { evidence += "request: \(exchange.rendered(times: !reproducible))\n" }
        if !result.evidence.stderr.isEmpty { evidence += "stderr:\n\(result.evidence.stderr)\n" }
        return text + MarkdownText.codeBlock(evidence)
    }
}
