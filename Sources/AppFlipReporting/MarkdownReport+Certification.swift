import AppFlipModel

/// What a certification run judged: the programs' headline above the verdict, what each covers, and the requirements
/// no machine judges that are attested by hand ("To attest").
extension MarkdownReport {
    static let programIcons: [ProgramOutcome.Status: String] = [.attestedByPartner: "☑️", .awaitingAttestation: "✍️", .notCertified: "⚠️", .shard: "🧩"]

    /// One line per program above the verdict (after the custom suite's, when the run used one), or "" when there
    /// is neither.
    func certificationHeadline() -> String {
        let custom = ReportHeadline.customSuite(run.provenance).map { "**⚠️ \($0)**" }
        let outcomes = run.programOutcomes.map { outcome in
            "**\(Self.programIcons[outcome.status] ?? "") \(MarkdownText.inline(outcome.headline, limit: 600))**"
        }
        let lines = [custom].compactMap { $0 } + outcomes
        return lines.isEmpty ? "" : lines.joined(separator: "  \n") + "\n\n"
    }

    /// Under the verdict: which programs the run judged, over which profiles, and what is left to attest.
    func certificationLine() -> String {
        let outcomes = run.programOutcomes
        guard !outcomes.isEmpty else { return "" }
        let programs = outcomes.map {
            "\(MarkdownText.inline($0.program.title)) (" + $0.program.profiles.map { "`\($0.rawValue)`" }.joined(separator: ", ") + ")"
        }
        let toAttest = run.catalog.toAttest(for: outcomes.map(\.program))
        return "**Certification run:** every case of " + programs.joined(separator: "; ") + " judged, with no baseline and no filter"
            + (toAttest.isEmpty
                ? "."
                : "; \(toAttest.count) requirement\(toAttest.count == 1 ? "" : "s") no machine judges, "
                    + "\(toAttest.filter { id in run.attestations.contains { $0.requirement == id.id } }.count) attested (see [To attest](#to-attest)).")
    }

    /// Each program's requirements no machine can judge, with the attestation given for each or "not attested".
    func toAttestSection() -> String {
        let outcomes = run.programOutcomes
        let toAttest = run.catalog.toAttest(for: outcomes.map(\.program))
        guard !toAttest.isEmpty else { return "" }
        var text =
            "## To attest\n\nThe programs judged here need these requirements, which no machine can judge headlessly. Each is "
            + "checked by hand and attested with `--attest FILE` (the word of whoever gives the file); the suite's verdict above does "
            + "not include them, and no run certifies a program: a signed certificate (`certify`) does.\n\n| Requirement | Level | Programs | Attested | How to check |\n| --- | --- | --- | --- | --- |\n"
        for requirement in toAttest {
            let programs = outcomes.filter { $0.program.needs(requirement) }.map { MarkdownText.inline($0.program.title) }.joined(separator: ", ")
            let attested =
                run.attestations.first { $0.requirement == requirement.id }.map {
                    "\(Self.attestedIcons[$0.verdict] ?? "") \($0.verdict.rawValue) (\(MarkdownText.inline($0.by, limit: 120)), \($0.date))"
                } ?? "**not attested**"
            text +=
                "| **\(requirement.id)** \(MarkdownText.inline(requirement.title)) | \(requirement.level.rawValue) | \(programs) | \(attested) | "
                + MarkdownText.inline(requirement.notObservable ?? "", limit: 400) + " |\n"
        }
        return text + "\n"
    }
}
