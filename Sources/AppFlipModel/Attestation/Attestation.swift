import AppFlipRedaction
import AppFlipSyntax

/// A reviewer's signed-off judgement of a requirement no machine can judge (one the catalog marks `not_observable`,
/// such as the consent screen's wording), given with `--attest FILE`. It is reported as "attested by hand" beside
/// the machine's verdicts and never counted among them: the run's verdict, counts and exit code are the suite's own.
package struct Attestation: Sendable, Hashable {
    /// What the reviewer found.
    package enum Verdict: String, Sendable, CaseIterable {
        case pass, fail
        case notApplicable = "not-applicable"
    }

    /// A file the reviewer attached (a screenshot, a recording): carried into the evidence bundle, its SHA-256 in
    /// every report.
    package struct Attachment: Sendable, Hashable {
        /// The path as the attestation file gives it.
        package var path: String
        /// Where the bundle holds it: `attestations/<requirement>/<file name>`.
        package var bundlePath: String
        package var sha256: String
        package var bytes: Int
        /// The file's bytes, for the bundle; nil when read back from a results.json (merge).
        package var contents: [UInt8]?

        package init(path: String, bundlePath: String, sha256: String, bytes: Int, contents: [UInt8]? = nil) {
            self.path = path
            self.bundlePath = bundlePath
            self.sha256 = sha256
            self.bytes = bytes
            self.contents = contents
        }
    }

    package var requirement: String
    package var verdict: Verdict
    /// Who signs it off, as they give it (a name, a role, an organisation).
    package var by: String
    /// `YYYY-MM-DD`.
    package var date: String
    package var note: String
    package var attachments: [Attachment]
    /// Where the attestation is written, for messages.
    package var location: SourceLocation?

    package init(
        requirement: String, verdict: Verdict, by: String, date: String, note: String, attachments: [Attachment] = [],
        location: SourceLocation? = nil
    ) {
        self.requirement = requirement
        self.verdict = verdict
        self.by = by
        self.date = date
        self.note = note
        self.attachments = attachments
        self.location = location
    }

    /// `AF-LINK-021 pass, attested by hand by Jane Reviewer on 2026-11-25`.
    package var summary: String { "\(requirement) \(verdict.rawValue), attested by hand by \(by) on \(date)" }

    /// The same attestation with its texts (who, note) redacted: a secret written into a note stays secret.
    package func redacted(with redactor: Redactor) -> Attestation {
        var copy = self
        copy.by = redactor.redact(by)
        copy.note = redactor.redact(note)
        return copy
    }
}

/// An attestation file as read: its attestations and its own bytes (the bundle carries it).
package struct AttestationFile: Sendable, Hashable {
    package var path: String
    package var bytes: [UInt8]
    package var attestations: [Attestation]

    package init(path: String, bytes: [UInt8], attestations: [Attestation]) {
        self.path = path
        self.bytes = bytes
        self.attestations = attestations
    }
}
