import AppFlipDigest
import AppFlipRedaction
import AppFlipSyntax
import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipLoading
@testable import AppFlipModel

/// `--attest FILE`: a reviewer's word on a requirement no machine can judge, read strictly (every error with its
/// line and column) and never allowed to stand in for a machine verdict.
@Suite("Attestation file")
struct AttestationLoaderTests {
    private let screenshot = Data("PNG bytes".utf8)

    private func load(_ text: String, files: [String: Data] = [:]) throws(DiagnosticList) -> AttestationFile {
        try AttestationLoader.load(bytes: Array(text.utf8), file: "attest.txt", catalog: Fixtures.catalog) { path in
            files[path].map { .success([UInt8]($0)) } ?? .failure(BoundedFile.Failure(path: path, reason: "cannot be read"))
        }
    }

    private func errors(_ text: String, files: [String: Data] = [:]) -> [String] {
        do {
            _ = try load(text, files: files)
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    private func entry(
        requirement: String = "AF-LINK-021", verdict: String = "pass", by: String = "Jane Reviewer", date: String = "2026-11-25",
        note: String = "The consent screen names Google Home.", attachments: String? = nil
    ) -> String {
        """
        attestations:
          - requirement: \(requirement)
            verdict: \(verdict)
            by: \(by)
            date: \(date)
            note: \(note)
        """ + (attachments.map { "\n    attachments: \($0)" } ?? "") + "\n"
    }

    @Test("A valid attestation reads with its attachments hashed and named for the bundle")
    func valid() throws {
        let file = try load(
            entry(attachments: #"["shots/consent screen.png", "other/consent screen.png"]"#),
            files: ["shots/consent screen.png": screenshot, "other/consent screen.png": Data("x".utf8)])
        let attestation = try #require(file.attestations.first)
        #expect(attestation.requirement == "AF-LINK-021" && attestation.verdict == .pass && attestation.by == "Jane Reviewer")
        #expect(
            attestation.attachments.map(\.bundlePath) == [
                "attestations/AF-LINK-021/consent_screen.png",
                "attestations/AF-LINK-021/2-consent_screen.png",
            ])
        #expect(attestation.attachments[0].sha256 == SHA256.hexDigest([UInt8](screenshot)) && attestation.attachments[0].bytes == screenshot.count)
        #expect(attestation.summary == "AF-LINK-021 pass, attested by hand by Jane Reviewer on 2026-11-25")
        for verdict in ["fail", "not-applicable"] { #expect(try load(entry(verdict: verdict)).attestations.count == 1) }
    }

    @Test("A requirement the suite's cases judge cannot be attested: its machine verdict stands")
    func machineJudged() {
        let found = errors(entry(requirement: "AF-LINK-005"))
        #expect(found.count == 1 && found[0].contains("attest.txt:2:18: error: AF-LINK-005 is judged by the suite's cases"), "\(found)")
        #expect(found[0].contains("not_observable ones: AF-LINK-021"))
    }

    @Test("Every other mistake is an error at its line and column")
    func mistakes() {
        let cases: [(String, [String: Data], String)] = [
            (entry(requirement: "AF-LINK-02"), [:], "2:18: error: 'AF-LINK-02' is not a requirement of the catalog (did you mean 'AF-LINK-021'?)"),
            (entry(verdict: "passed"), [:], "3:14: error: 'passed' is not a valid verdict"),
            (entry(date: "2026-13-01"), [:], "5:11: error: 'date' is a date that exists, YYYY-MM-DD"),
            (entry(date: "2026-02-29"), [:], "5:11: error: 'date' is a date that exists, YYYY-MM-DD ('2026-02-29' is not)"),
            (entry(note: "ok"), [:], "6:11: error: 'note' says what was checked and how"),
            (entry(by: "J"), [:], "4:9: error: 'by' names who signs the attestation off"),
            (entry(attachments: #"["missing.png"]"#), [:], "7:19: error: cannot read the attachment 'missing.png'"),
            (entry() + String(entry().dropFirst("attestations:\n".count)), [:], "error: AF-LINK-021 is attested twice"),
            ("attestations:\n  - requirement: AF-LINK-021\n", [:], "error: an attestation"),
            ("known_failures: []\n", [:], "error:"),
        ]
        for (text, files, expected) in cases {
            let found = errors(text, files: files)
            #expect(found.contains { $0.contains(expected) }, "\(expected): \(found)")
        }
    }

    @Test("Attachments are bounded: each, in number and in all")
    func bounds() {
        let big = Data(count: AttestationLoader.attachmentLimit + 1)
        #expect(errors(entry(attachments: #"["big.bin"]"#), files: ["big.bin": big]).contains { $0.contains("an attachment is at most") })
        let many = "[" + (0...AttestationLoader.attachmentsPerAttestation).map { "\"f\($0)\"" }.joined(separator: ", ") + "]"
        let files = Dictionary(uniqueKeysWithValues: (0...AttestationLoader.attachmentsPerAttestation).map { ("f\($0)", Data("x".utf8)) })
        #expect(errors(entry(attachments: many), files: files).contains { $0.contains("at most 32 attachments") })
        let part = Data(count: AttestationLoader.attachmentLimit)
        let parts = (0..<5).map { "p\($0)" }
        #expect(
            errors(
                entry(attachments: "[" + parts.map { "\"\($0)\"" }.joined(separator: ", ") + "]"),
                files: Dictionary(uniqueKeysWithValues: parts.map { ($0, part) })
            ).contains { $0.contains("bytes in all") })
    }

    @Test("A secret in an attestation's texts is redacted like any other")
    func redacted() throws {
        let attestation = try #require(try load(entry(note: "Checked with client_secret=s3cr3t-v4lue-123 on staging.")).attestations.first)
        let shown = attestation.redacted(with: Redactor(secrets: ["s3cr3t-v4lue-123"]))
        #expect(!shown.note.contains("s3cr3t") && shown.note.contains("‹redacted"))
    }

    @Test("An attachment is a regular file inside the attestation file's folder: no absolute path, no way out, no link out")
    func confinement() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("attach-\(UUID().uuidString)").path
        let folder = root + "/review"
        try FileManager.default.createDirectory(atPath: folder + "/shots", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("inside".utf8).write(to: URL(fileURLWithPath: folder + "/shots/ok.png"))
        try Data("outside".utf8).write(to: URL(fileURLWithPath: root + "/secret.txt"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/out.png", withDestinationPath: root + "/secret.txt")
        try FileManager.default.createSymbolicLink(atPath: folder + "/in.png", withDestinationPath: folder + "/shots/ok.png")
        try FileManager.default.createSymbolicLink(atPath: folder + "/environ", withDestinationPath: "/proc/self/environ")
        #expect(try AttestationLoader.readAttachment("shots/ok.png", in: folder) == Array("inside".utf8))
        #expect(try AttestationLoader.readAttachment("in.png", in: folder) == Array("inside".utf8), "a link that stays inside is followed")
        for (path, reason) in [
            (root + "/secret.txt", "not a path relative"), ("/proc/self/environ", "not a path relative"),
            ("../secret.txt", "leads outside"), ("shots/../../secret.txt", "leads outside"), ("out.png", "leads outside"),
            ("environ", "leads outside"), ("shots", "not a regular file"), ("missing.png", "not a regular file"),
        ] {
            do {
                let bytes = try AttestationLoader.readAttachment(path, in: folder)
                Issue.record("\(path) was read: \(bytes.count) bytes")
            } catch {
                #expect(error.reason.contains(reason), "\(path): \(error.reason)")
            }
        }
    }
}
