import AppFlipDigest
import AppFlipEvidence
import AppFlipReporting
import Foundation

/// What a forger does to an evidence bundle after editing a file: bring the manifest's hashes in line, so that only
/// the contradictions between the files can give the edit away.
package enum BundleForgery {
    /// The archive of `entries` with the manifest's hashes and sizes brought in line with them.
    package static func withManifestInLine(_ entries: [TarArchive.Entry]) throws -> [UInt8] {
        var entries = entries
        guard let manifestIndex = entries.firstIndex(where: { $0.path == "manifest.json" }) else { throw CocoaError(.fileReadCorruptFile) }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        var manifest = try decoder.decode(EvidenceBundle.Manifest.self, from: Data(entries[manifestIndex].bytes))
        manifest.files = manifest.files.map { file in
            guard let entry = entries.first(where: { $0.path == file.path }) else { return file }
            return EvidenceBundle.Manifest.File(path: file.path, sha256: SHA256.hexDigest(entry.bytes), bytes: entry.bytes.count)
        }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        entries[manifestIndex].bytes = try [UInt8](encoder.encode(manifest))
        return try TarArchive.write(entries)
    }
}

/// A reviewer's attestation file in `directory` (`attest.txt`: AF-LINK-021 attested as failing, with one
/// attachment, `shots/consent.png`), for the tests of `--attest` and of what `verify` holds it against.
package enum AttestationFixture {
    package static let screenshot = Array("PNG consent screen".utf8)

    package static func write(in directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory + "/shots", withIntermediateDirectories: true)
        try Data(screenshot).write(to: URL(fileURLWithPath: directory + "/shots/consent.png"))
        try Data(
            """
            attestations:
              - requirement: AF-LINK-021
                verdict: fail
                by: Jane Reviewer, Example Certification Ltd
                date: 2026-11-25
                note: The consent screen of build 4.2.0 does not name Google Home.
                attachments: ["shots/consent.png"]

            """.utf8
        ).write(to: URL(fileURLWithPath: directory + "/attest.txt"))
    }
}
