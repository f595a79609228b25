import Foundation

extension AttestationFixture {
    /// An attestation file (the `--attest` syntax) for tests that take the attested path: each requirement passing,
    /// by a test reviewer, with a note that says it is a fixture. Writes it to `path` and returns the path.
    @discardableResult
    package static func write(
        _ requirements: [String], to path: String,
        note: String = "A fixture attestation, so the test can take the attested path."
    ) throws -> String {
        let entries = requirements.map { id in
            "  - requirement: \(id)\n    verdict: pass\n    by: Test Reviewer\n    date: 2026-11-28\n    note: \(note)\n"
        }
        try ("attestations:\n" + entries.joined()).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
