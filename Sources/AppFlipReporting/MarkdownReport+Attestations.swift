import AppFlipModel

/// What was attested by hand (`--attest`), kept apart from the suite's verdicts: a line under the verdict,
/// a section of its own, and the matrix rows of the requirements attested.
extension MarkdownReport {
    static let attestedIcons: [Attestation.Verdict: String] = [.pass: "✅", .fail: "❌", .notApplicable: "➖"]

    /// The line under the verdict, or "" when nothing was attested.
    func attestedLine() -> String {
        guard !run.attestations.isEmpty else { return "" }
        let failing = run.attestations.filter { $0.verdict == .fail }.map(\.requirement)
        return "**Attested by hand** (not judged by the suite, not in the counts or the exit code): \(run.attestations.count) "
            + "requirement\(run.attestations.count == 1 ? "" : "s")"
            + (failing.isEmpty ? ", none attested as failing" : "; attested as **failing**: " + failing.joined(separator: ", "))
            + ". See [Attested by hand](#attested-by-hand).\n\n"
    }

    /// One entry per attestation: the requirement, the verdict, who and when, the note, the attachments' digests.
    func attestedSection() -> String {
        guard !run.attestations.isEmpty else { return "" }
        var text =
            "## Attested by hand\n\nThese requirements cannot be observed headlessly. They were judged by hand by whoever each "
            + "attestation names, in the file given to this run; the suite recorded them as given and judged nothing here. They "
            + "certify nothing: a certificate (`certify`) counts only the attestations of whoever signs it.\n\n"
        for attestation in run.attestations {
            let title = run.catalog[attestation.requirement].map { " \(MarkdownText.inline($0.title))" } ?? ""
            let level = run.catalog[attestation.requirement].map { " (\($0.level.rawValue))" } ?? ""
            text +=
                "- **\(attestation.requirement)**\(level)\(title): \(Self.attestedIcons[attestation.verdict] ?? "") "
                + "**\(attestation.verdict.rawValue)**, attested by \(MarkdownText.inline(attestation.by, limit: 200)) on \(attestation.date). "
                + MarkdownText.inline(attestation.note, limit: 2000) + "\n"
            for attachment in attestation.attachments {
                text +=
                    "  - attachment `\(MarkdownText.inline(attachment.bundlePath, limit: 300))` (\(attachment.bytes) bytes, sha256 "
                    + "`\(attachment.sha256.filter(\.isHexDigit))`)\n"
            }
        }
        return text + "\n"
    }
}
