import AppFlipModel

/// The rest of the page: what is left to attest and what was attested, what was skipped, the requirement matrix,
/// every case, and the provenance with the command that reproduces the run.
extension HTMLReport {
    func attestationSection() -> String {
        let toAttest = run.catalog.toAttest(for: run.programOutcomes.map(\.program))
        guard !toAttest.isEmpty || !run.attestations.isEmpty else { return "" }
        var text = "<section id=\"attestations\">\n<h2>Attestations</h2>\n"
        if !toAttest.isEmpty {
            text +=
                "<p>The programs judged here need these requirements, which no machine can judge headlessly; each is checked by "
                + "hand and attested with <code>--attest FILE</code>, the word of whoever gives the file.</p>\n<table>\n<thead><tr><th>Requirement</th><th>Level</th><th>Attested</th>"
                + "<th>How to check</th></tr></thead>\n<tbody>\n"
            for requirement in toAttest {
                let attested =
                    run.attestations.first { $0.requirement == requirement.id }
                    .map { "\($0.verdict.rawValue) (\(HTMLText.text($0.by)), \(HTMLText.text($0.date)))" }
                    ?? "<strong>not attested</strong>"
                text +=
                    "<tr"
                    + Self.filterAttributes(verdicts: [], profiles: [requirement.profile], levels: [requirement.level], search: [requirement.id])
                    + ">"
                    + "<td><strong>\(HTMLText.text(requirement.id))</strong> \(HTMLText.text(requirement.title))</td><td>\(requirement.level.rawValue)</td>"
                    + "<td>\(attested)</td><td>\(HTMLText.text(requirement.notObservable ?? ""))</td></tr>\n"
            }
            text += "</tbody>\n</table>\n"
        }
        for attestation in run.attestations {
            text +=
                "<p><strong>\(HTMLText.text(attestation.requirement))</strong>: "
                + "<strong>\(attestation.verdict.rawValue)</strong>, attested by \(HTMLText.text(attestation.by)) on \(HTMLText.text(attestation.date)). "
                + HTMLText.text(HTMLText.cut(attestation.note, limit: 2000)) + "</p>\n"
        }
        return text + "</section>\n"
    }

    func skippedSection() -> String {
        let lines = SkipLine.lines(of: run)
        guard !lines.isEmpty else { return "<section id=\"skipped\">\n<h2>Skipped</h2>\n<p>Nothing skipped.</p>\n</section>\n" }
        var text = "<section id=\"skipped\">\n<h2>Skipped</h2>\n<ul>\n"
        for line in lines {
            text +=
                "<li" + Self.filterAttributes(verdicts: [.skip], profiles: [line.profile], levels: [], search: [line.profile]) + "><code>"
                + HTMLText.text(line.profile)
                + "</code>: \(line.count) case\(line.count == 1 ? "" : "s") — \(HTMLText.text(HTMLText.cut(line.reason, limit: 500)))</li>\n"
        }
        return text + "</ul>\n</section>\n"
    }

    /// Every requirement of the catalog: its level, sources, the cases that judged it and its result.
    func matrixSection() -> String {
        let outcomes = findings?.outcomes ?? run.requirementOutcomes
        var text =
            "<section id=\"matrix\">\n<h2>Requirement matrix</h2>\n<p>This run judged \(outcomes.filter(\.isJudged).count) of the "
            + "\(outcomes.count) requirements in the catalog.</p>\n<table>\n<thead><tr><th>ID</th><th>Level</th><th>Requirement</th><th>Sources</th>"
            + "<th>Cases</th><th>Result</th></tr></thead>\n<tbody>\n"
        for outcome in outcomes {
            let requirement = outcome.requirement
            let result =
                switch MatrixCoverage(outcome, in: run, profiles: profiles) {
                case .judged(let verdict): "<span class=\"tag \(verdict.rawValue)\">\(Self.verdictIcons[verdict] ?? "") \(verdict.rawValue)</span>"
                case .planned: "not covered: planned"
                case .attested(let attestation): "attested by hand: \(attestation.verdict.rawValue)"
                case .notObservable: "not covered: not observable"
                case .profileNotRun(let profile): "not run (profile <code>\(HTMLText.text(profile))</code> not in this run)"
                case .notCovered: "not covered in this run"
                }
            text +=
                "<tr id=\"req-\(HTMLText.text(requirement.id))\""
                + Self.filterAttributes(
                    verdicts: outcome.verdict.map { [$0] } ?? [],
                    profiles: [requirement.profile], levels: [requirement.level], search: [requirement.id]) + ">"
            text +=
                "<td><strong>\(HTMLText.text(requirement.id))</strong></td><td>\(requirement.level.rawValue)</td><td>\(HTMLText.text(requirement.title))</td>"
                + "<td>\(sources(requirement.id))</td><td class=\"n\">\(outcome.caseCount)</td><td>\(result)</td></tr>\n"
        }
        return text + "</tbody>\n</table>\n</section>\n"
    }

    /// Every case: its verdict, requirements and message, each row filterable (`data-case` names it for `verify`),
    /// written row by row.
    func writeEveryCaseSection(into sink: ReportSink) {
        sink.append(
            "<section id=\"cases\">\n<h2>Every case (\(run.results.count))</h2>\n<table>\n<thead><tr><th>Case</th><th>Verdict</th>"
                + "<th>Requirements</th><th>Message</th><th>Time (s)</th></tr></thead>\n<tbody>\n")
        // Written as bytes, one piece a row handed to the sink (a long run's page has thousands of these rows).
        var row = ReportBytes()
        for result in run.results.prefix(Self.everyCaseRows) {
            let conformanceCase = result.conformanceCase
            let outlines = result.checkOutlines  // no texts: a recorded result's are in the spool
            let requirements = CaseResult.requirements(of: conformanceCase, outlines: outlines)
            let id = HTMLText.isPlainASCII(conformanceCase.id) ? conformanceCase.id : HTMLText.text(conformanceCase.id)
            let verdict = result.verdict
            row.appendLiteral("<tr data-case=\"")
            row.append(id)
            row.append("\"")
            // IDs that are plain ASCII (nearly all) are written as they are and compared byte for byte.
            let plainIDs = requirements.allSatisfy { HTMLText.isPlainASCII($0.id) }
            row.withBytes { bytes in
                Self.appendCaseFilterAttributes(
                    verdict: verdict, profile: conformanceCase.profile.rawValue, id: conformanceCase.id, requirements: requirements,
                    plainIDs: plainIDs, to: &bytes)
            }
            row.appendLiteral("><td><code>")
            row.append(id)
            row.appendLiteral(Self.verdictCell(verdict))
            if result.isKnown { row.appendLiteral(" (known)") }
            row.appendLiteral("</td><td>")
            // IDs and level names: HTML's escapes are for the rare ID that is not plain.
            if plainIDs {
                row.withBytes { ReportFormatting.appendRequirementList(requirements, to: &$0) }
            } else {
                row.append(HTMLText.text(ReportFormatting.requirementList(requirements)))
            }
            row.appendLiteral("</td><td>")
            if let message = result.message { row.append(HTMLText.text(HTMLText.cut(message, limit: 300))) }
            row.appendLiteral("</td><td class=\"n\">")
            row.withBytes { ReportFormatting.appendSeconds(reproducible ? 0 : result.duration, to: &$0) }
            row.appendLiteral("</td></tr>\n")
            sink.take(&row)
        }
        var tail = "</tbody>\n</table>\n"
        if run.results.count > Self.everyCaseRows {
            tail += "<p>\(run.results.count - Self.everyCaseRows) more cases not listed here (see results.json).</p>\n"
        }
        sink.append(tail + "</section>\n")
    }

    /// Which build judged which target, how, and the command that reproduces the run.
    func provenanceSection() -> String {
        let provenance = run.provenance
        let rows = ProvenanceRows.rows(provenance, reproducible: reproducible)
        var text =
            "<section id=\"provenance\">\n<h2>Provenance</h2>\n<p>Reproduce the whole run with:</p>\n"
            + Self.command(provenance.command, id: "cmd-run")
        text +=
            "<dl class=\"provenance\">\n"
            + rows.map { row in
                let value =
                    ProvenanceRows.ownCode(row.name, row.value).map { HTMLText.text($0.prefix) + "<code>\($0.code)</code>" }
                    ?? HTMLText.text(row.value)
                return "<dt>\(HTMLText.text(row.name))</dt><dd>\(value)</dd>\n"
            }.joined() + "</dl>\n"
        return text + "</section>\n"
    }
}
