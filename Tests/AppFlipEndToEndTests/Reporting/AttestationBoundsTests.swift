import AppFlipDigest
import AppFlipEvidence
import AppFlipLoading
import AppFlipModel
import AppFlipReporting
import AppFlipTestSupport
import Foundation
import Testing

/// Attestations belong to the run they are given to: none dated after it, none for a requirement outside its
/// programs, and in a certification's bundle they count only when signed with everything else.
@Suite("Attestations bounded by their run", .serialized, .enabled(if: Ed25519.isAvailable))
struct AttestationBoundsTests {
    private func scratch() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("attest-bounds-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    private func certify(_ directory: String, _ extra: [String]) throws -> (status: Int32, output: String) {
        try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            ["run", "--target", "reference", "--certification", "native-client", "--quiet", "--reports", directory + "/reports"] + extra)
    }

    private func attestation(_ requirement: String, date: String) -> String {
        "attestations:\n  - requirement: \(requirement)\n    verdict: pass\n    by: Test Reviewer\n    date: \(date)\n"
            + "    note: A fixture attestation for the bounds.\n"
    }

    @Test("run refuses an attestation dated after today, or of a requirement outside the certification's programs, with its line")
    func runRefuses() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try attestation("NAT-MIX-001", date: "2999-12-31").write(toFile: directory + "/future.txt", atomically: true, encoding: .utf8)
        let future = try certify(directory, ["--attest", directory + "/future.txt"])
        #expect(future.status == 2, "\(future.output)")
        #expect(future.output.contains("future.txt:5:11: error: 'date' 2999-12-31 is after the run ("), "\(future.output)")
        // AF-LINK-021 is attestable, but of App Flip for iOS: it says nothing of a native-client certification.
        try attestation("AF-LINK-021", date: "2026-11-28").write(toFile: directory + "/other.txt", atomically: true, encoding: .utf8)
        let other = try certify(directory, ["--attest", directory + "/other.txt"])
        #expect(other.status == 2, "\(other.output)")
        #expect(
            other.output.contains("other.txt:2:18: error: AF-LINK-021 is no requirement of the certification's programs (native-client)"),
            "\(other.output)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/reports/results.json"))
    }

    @Test("A certification bundle's attestations count signed only; verify lists who attested what and when")
    func signedOnly() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let attest = try AttestationFixture.write(["NAT-MIX-001"], to: directory + "/attest.txt")
        #expect(try certify(directory, ["--attest", attest, "--bundle", directory + "/unsigned.tar"]).status == 0)
        let unsigned = try ProgramRun.run(BuiltProducts.path("appflip-conformance"), ["verify", directory + "/unsigned.tar"])
        #expect(unsigned.status == 1, "\(unsigned.output)")
        #expect(
            unsigned.output.contains("PROBLEM the certification's attestations are not signed: anyone could have added them"), "\(unsigned.output)")
        let keys = try SigningKeys.write("partner", in: directory)
        #expect(try certify(directory, ["--attest", attest, "--bundle", directory + "/signed.tar", "--sign-key", keys.privateKey]).status == 0)
        let signed = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"), ["verify", directory + "/signed.tar", "--trusted-key", keys.publicKey])
        #expect(signed.status == 0, "\(signed.output)")
        #expect(
            signed.output.contains("attested by hand (not judged by the suite): NAT-MIX-001 pass by Test Reviewer on 2026-11-28"), "\(signed.output)")
    }

    @Test("A signed bundle whose attestation is dated after its run: verify names the line, NOT verified")
    func datedAfterTheRun() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try certify(directory, []).status == 0)
        let (catalog, suite) = try SuiteRun.load()
        let loaded = try ResultsDocument.load(run: directory + "/reports")
        var run = try ResultsDocument.merge([loaded], suite: suite, catalog: catalog, asRecorded: true)
        // Written with a loader that knows no run: the date stands.
        try attestation("NAT-MIX-001", date: "2999-12-31").write(toFile: directory + "/late.txt", atomically: true, encoding: .utf8)
        let file = try AttestationLoader.load(path: directory + "/late.txt", catalog: catalog)
        run.attestations = file.attestations
        let files = ReportSet(run: run, profiles: loaded.document.profiles.map(\.profile)).render()
        let keys = try SigningKeys.write("partner", in: directory)
        let archive = try EvidenceBundle.make(
            reports: files, caseFiles: suite.sources.map { (path: suite.digestPath(of: $0.path), bytes: $0.bytes) },
            catalog: try #require(catalog.file).bytes, attestations: file,
            signingKey: Array(try Data(contentsOf: URL(fileURLWithPath: keys.privateKey))),
            run: run)
        try Data(archive).write(to: URL(fileURLWithPath: directory + "/late.tar"))
        let verify = try ProgramRun.run(BuiltProducts.path("appflip-conformance"), ["verify", directory + "/late.tar"])
        #expect(verify.status == 1, "\(verify.output)")
        #expect(verify.output.contains("PROBLEM attestations/attestations.txt:5:11: 'date' 2999-12-31 is after the run ("), "\(verify.output)")
    }
}
