import AppFlipModel

/// The findings: root causes, the failed requirements with their sources, and each finding group once, with its
/// expected and observed, its sources and quote, how to reproduce it and its evidence in a section that opens.
extension HTMLReport {
    func rootCausesSection(_ causes: [RootCause]) -> String {
        var text = "<section id=\"root-causes\">\n<h2>Root causes</h2>\n<ol>\n"
        for cause in causes {
            let first = cause.cases[0].conformanceCase
            let requirements = cause.requirements.map { "<a href=\"#f\($0.group + 1)\">\(HTMLText.text($0.reference.id))</a> (\($0.cases))" }
            text +=
                "<li"
                + Self.filterAttributes(
                    verdicts: [.fail], profiles: cause.cases.map(\.conformanceCase.profile.rawValue),
                    levels: cause.requirements.map(\.reference.level),
                    search: cause.requirements.map(\.reference.id) + cause.cases.prefix(Self.casesPerGroup).map(\.conformanceCase.id)) + ">"
            text +=
                "✗ <strong>\(HTMLText.text(HTMLText.cut(cause.observed, limit: 300)))</strong> — \(cause.cases.count) case\(cause.cases.count == 1 ? "" : "s") "
                + "under \(cause.requirements.count) requirement\(cause.requirements.count == 1 ? "" : "s"): \(requirements.joined(separator: ", ")); "
                + "first <code>\(HTMLText.text(first.id))</code></li>\n"
        }
        return text + "</ol>\n</section>\n"
    }

    func failedRequirementsSection(_ groups: [FindingGroup]) -> String {
        var text = "<section id=\"failed-requirements\">\n<h2>Failed requirements</h2>\n"
        var rows: [(reference: RequirementReference, ids: Set<String>, profiles: Set<String>, first: FindingGroup, anchor: Int)] = []
        for (index, group) in groups.enumerated() {
            guard case .check(let reference, _) = group.kind, group.verdict == .fail else { continue }
            let ids = Set(group.members.map(\.result.conformanceCase.id))
            let profiles = Set(group.members.map(\.result.conformanceCase.profile.rawValue))
            if let row = rows.firstIndex(where: { $0.reference == reference }) {
                rows[row].ids.formUnion(ids)
                rows[row].profiles.formUnion(profiles)
            } else {
                rows.append((reference, ids, profiles, group, index + 1))
            }
        }
        guard !rows.isEmpty else {
            return text + "<p>" + (run.count(.fail) == 0 ? "None: no MUST or MUST NOT was violated." : "None named (see the failures below).")
                + "</p>\n</section>\n"
        }
        text +=
            "<table>\n<thead><tr><th>Requirement</th><th>Level</th><th>Failing cases</th><th>Expected</th><th>Observed (first case)</th>"
            + "<th>Sources</th></tr></thead>\n<tbody>\n"
        for row in rows {
            guard case .check(_, let expected) = row.first.kind else { continue }
            let requirement = run.catalog[row.reference.id]
            text +=
                "<tr"
                + Self.filterAttributes(
                    verdicts: [.fail], profiles: row.profiles.sorted(), levels: [row.reference.level],
                    search: [row.reference.id] + row.ids.sorted().prefix(Self.casesPerGroup)) + ">"
            text +=
                "<td><a href=\"#f\(row.anchor)\"><strong>\(HTMLText.text(row.reference.id))</strong></a>"
                + (requirement.map { " — " + HTMLText.text($0.title) } ?? "") + "</td><td>\(row.reference.level.rawValue)</td>"
                + "<td class=\"n\">\(row.ids.count)</td><td>\(HTMLText.text(HTMLText.cut(expected, limit: 200)))</td>"
                + "<td>\(HTMLText.text(HTMLText.cut(row.first.representative.observed, limit: 200)))</td><td>\(sources(row.reference.id))</td></tr>\n"
        }
        return text + "</tbody>\n</table>\n</section>\n"
    }

    /// The requirement's citations, each linked to its source when the catalog gives an https URL.
    func sources(_ id: String) -> String {
        guard let requirement = run.catalog[id] else { return "" }
        // Appended into one string (each requirement of the matrix links its sources).
        var text = ""
        for (index, citation) in requirement.citations.enumerated() {
            if index > 0 { text += "; " }
            let label = HTMLText.text(citation.description)
            guard let url = run.catalog.sources[citation.sourceKey]?.url,
                let href = HTMLText.href(url + CitationLinks.anchor(citation.section, url: url))
            else {
                text += label
                continue
            }
            text += "<a href=\""
            text += href
            text += "\" rel=\"noreferrer\">"
            text += label
            text += "</a>"
        }
        return text
    }

    func groupsSection(_ title: String, id: String, _ groups: [FindingGroup], anchor: String) -> String {
        var text = "<section id=\"\(id)\">\n<h2>\(title)</h2>\n"
        if groups.isEmpty { return text + "<p>None.</p>\n</section>\n" }
        for (index, group) in groups.enumerated() {
            text += section(group, anchor: "\(anchor)\(index + 1)", number: index + 1, withEvidence: index < Self.groupsWithEvidence)
        }
        return text + "</section>\n"
    }

    private func section(_ group: FindingGroup, anchor: String, number: Int, withEvidence: Bool) -> String {
        let first = group.representative.result
        let count = group.members.count
        let members = group.members.map(\.result)
        var levels: [Level] = []
        var requirementIDs: [String] = []
        var text = ""
        switch group.kind {
        case .check(let reference, let expected):
            levels = [reference.level]
            requirementIDs = [reference.id]
            let title =
                (run.catalog[reference.id].map { " — " + HTMLText.text($0.title) } ?? "")
                + (group.headingPart.map { ": " + HTMLText.text(HTMLText.cut($0, limit: 120)) } ?? "")
            text +=
                "<summary>\(number). \(Self.verdictIcons[group.verdict] ?? "") \(HTMLText.text(reference.description))\(title) (\(count) case\(count == 1 ? "" : "s"))</summary>\n"
            text +=
                "<p><strong>Expected:</strong> \(HTMLText.text(HTMLText.cut(expected, limit: 600)))<br><strong>Observed:</strong> "
                + HTMLText.text(HTMLText.cut(group.representative.observed, limit: 600)) + (count > 1 ? " (in all \(count), alike)" : "") + "</p>\n"
            let sources = sources(reference.id)
            if !sources.isEmpty { text += "<p><strong>Sources:</strong> \(sources)</p>\n" }
            if let quote = run.catalog[reference.id]?.quote {
                text +=
                    "<blockquote><strong>\(HTMLText.text(quote.citation.description)) says:</strong> “\(HTMLText.text(HTMLText.cut(quote.text, limit: 600)))”</blockquote>\n"
            }
            if let attested = run.attestation(companionOf: reference.id) {
                text +=
                    "<p><strong>Attested by hand for \(HTMLText.text(attested.requirement))</strong> (read beside this finding; a person's word, "
                    + "not the suite's): <strong>\(attested.verdict.rawValue)</strong> by \(HTMLText.text(attested.by)) on "
                    + "\(HTMLText.text(attested.date)): \(HTMLText.text(HTMLText.cut(attested.note, limit: 600)))</p>\n"
            }
        case .targetError, .suiteError:
            requirementIDs = first.conformanceCase.requirements.map(\.id)
            levels = first.conformanceCase.requirements.map(\.level)
            let what = group.kind == .suiteError ? "Suite error, not the target's" : "Target error"
            text += "<summary>\(number). \(Self.verdictIcons[group.verdict] ?? "") \(what) (\(count) case\(count == 1 ? "" : "s"))</summary>\n"
            text +=
                "<p><strong>What happened:</strong> \(HTMLText.text(HTMLText.cut(group.representative.observed, limit: 600)))"
                + (count > 1 ? " (in <code>\(HTMLText.text(first.conformanceCase.id))</code>; the others alike)" : "") + "</p>\n"
            text += "<p><strong>Requirements these cases check:</strong> \(HTMLText.text(ReportFormatting.requirementList(first)))</p>\n"
        }
        for entry in first.knownBy { text += "<p><strong>Accepted by the baseline:</strong> \(HTMLText.text(entry.summary))</p>\n" }
        if let command = run.provenance.command(onlyCase: first.conformanceCase.id) {
            text += "<p>Reproduce <code>\(HTMLText.text(first.conformanceCase.id))</code> alone:</p>\n" + Self.command(command, id: "cmd-\(anchor)")
        }
        if withEvidence { text += evidence(first) }
        if count > 1 {
            text += "<table>\n<thead><tr><th>Case</th><th>Case file</th><th>Observed</th></tr></thead>\n<tbody>\n"
            for member in group.members.prefix(Self.casesPerGroup) {
                text +=
                    "<tr><td><code>\(HTMLText.text(member.result.conformanceCase.id))</code></td><td><code>"
                    + HTMLText.text(ReportFormatting.location(member.result.conformanceCase))
                    + "</code></td><td>\(HTMLText.text(HTMLText.cut(member.observed, limit: 300)))</td></tr>\n"
            }
            text += "</tbody>\n</table>\n"
            if count > Self.casesPerGroup { text += "<p>\(count - Self.casesPerGroup) more not listed here (see results.json).</p>\n" }
        }
        let attributes = Self.filterAttributes(
            verdicts: [group.verdict], profiles: members.map(\.conformanceCase.profile.rawValue), levels: levels,
            search: requirementIDs + members.prefix(Self.casesPerGroup).map(\.conformanceCase.id))
        return "<details id=\"\(anchor)\" class=\"finding\"\(attributes)>\n" + text + "</details>\n"
    }

    /// What the case sent and received (the link, the answer, each exchange with its headers and times, the
    /// adapter's standard error), and which of its checks could not be judged and why. Redacted as everywhere.
    private func evidence(_ result: CaseResult) -> String {
        var text =
            "<div class=\"evidence\">\n<p>Evidence from <code>\(HTMLText.text(result.conformanceCase.id))</code>, case file <code>"
            + HTMLText.text(ReportFormatting.location(result.conformanceCase))
            + "</code> (scenario <code>\(result.conformanceCase.scenario.rawValue)</code>)</p>\n"
        if result.verdict == .fail, let message = result.message { text += "<p>Then: \(HTMLText.text(message))</p>\n" }
        let notJudged = ReportFormatting.notJudged(result)
        if !notJudged.isEmpty {
            text +=
                "<ul>\n"
                + notJudged.map { entry in
                    "<li>\(HTMLText.text(entry.requirement.description)): \(entry.count == 1 ? "1 check" : "\(entry.count) checks") not judged — "
                        + HTMLText.text(entry.reason) + "</li>\n"
                }.joined() + "</ul>\n"
        }
        if !result.evidence.link.isEmpty { text += "<p><strong>Link</strong></p>\n<pre>\(HTMLText.text(result.evidence.link))</pre>\n" }
        if !result.evidence.answer.isEmpty { text += "<p><strong>Answer</strong></p>\n<pre>\(HTMLText.text(result.evidence.answer))</pre>\n" }
        for (index, exchange) in result.evidence.exchanges.enumerated() {
            var when: [String] = []
            if !reproducible, let sent = exchange.sentAt { when.append("sent " + Evidence.Exchange.timestamp(sent)) }
            if !reproducible, let milliseconds = exchange.milliseconds { when.append("\(milliseconds) ms") }
            text += "<p><strong>Exchange \(index + 1)</strong>" + (when.isEmpty ? "" : " (" + when.joined(separator: ", ") + ")") + "</p>\n"
            text += "<pre>\(HTMLText.text(exchange.transcript))</pre>\n"
            for (title, headers) in [("Request headers", exchange.requestHeaders), ("Response headers", exchange.responseHeaders)]
            where !headers.isEmpty {
                text += "<p>\(title)</p>\n<pre>" + headers.map { HTMLText.text($0.line) }.joined(separator: "\n") + "</pre>\n"
            }
        }
        if !result.evidence.stderr.isEmpty { text += "<p><strong>Standard error</strong></p>\n<pre>\(HTMLText.text(result.evidence.stderr))</pre>\n" }
        return text + "</div>\n"
    }

    /// A command in a block with a copy button (shown by the script; without it the command is there to select).
    static func command(_ command: String, id: String) -> String {
        "<pre><button type=\"button\" class=\"copy\" data-copy=\"\(id)\" hidden>Copy</button><code id=\"\(id)\">\(HTMLText.text(command))</code></pre>\n"
    }
}
