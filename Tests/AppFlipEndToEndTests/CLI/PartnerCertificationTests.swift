import AppFlipEvidence
import AppFlipReporting
import AppFlipTestSupport
import Foundation
import Testing

/// A certification as a partner makes one: their server over https with a staging CA of its own (`appflip-reference
/// serve --https`, another process), a configuration file giving everything the program needs (real sign-in pages,
/// secrets from the environment), their adapter command, the CA by `--ca-file`. It must end passed by the suite and attested with the
/// attestations given, and only then.
@Suite("A partner-shaped certification over https", .serialized)
struct PartnerCertificationTests {
    private let environment = ProcessInfo.processInfo.environment.merging(StagingServer.secrets) { $1 }

    /// Runs the iOS certification against a fresh server (the throttling probe locks the client out for a while).
    private func certify(_ directory: String, narrowed: String, attest: String?) throws -> (status: Int32, output: String, document: ResultsDocument)
    {
        let server = try StagingServer(directory: directory)
        try server.configuration(narrowed: narrowed).write(toFile: directory + "/partner.target", atomically: true, encoding: .utf8)
        let pem = server.pem
        let codeServer = server.codeServer
        let result = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            [
                "run", "--config", directory + "/partner.target", "--ca-file", server.caFile, "--certification", "app-flip-ios", "--quiet",
                "--reports", directory + "/reports", "--bundle", directory + "/bundle.tar", "--operator", "Partner CI",
            ] + (attest.map { ["--attest", $0, "--sign-key", try SigningKeys.write("partner", in: directory).privateKey] } ?? []) + [
                "--", BuiltProducts.path("appflip-reference"), "--code-server", codeServer, "--code-server-ca", pem,
            ],
            environment: environment)
        return (result.status, result.output, try ResultsDocument.load(run: directory + "/reports").document)
    }

    @Test(
        "Every need configured, over https with a staging CA: the suite's part passes; passed and attested once the MUSTs no machine judges are attested"
    )
    func partnerCertification() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("partner-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A server that never narrows says so: the narrowing's case does not apply, and nothing is missing.
        let awaiting = try certify(directory, narrowed: "narrowed_scope: none", attest: nil)
        #expect(awaiting.status == 0, "\(awaiting.output.suffix(2500))")
        #expect(
            awaiting.output.contains("\nPASSED BY THE SUITE, AWAITING ATTESTATION: App Flip for iOS (AF-LINK-021, TOK-GEN-006)\n"),
            "\(awaiting.output.suffix(2500))")
        #expect(awaiting.document.outcome.certification?.map(\.status) == ["awaiting-attestation"])
        let skipped = awaiting.document.cases.filter { $0.verdict == "skip" }
        #expect(skipped.allSatisfy { $0.conditionUnmet == true }, "\(skipped.map { "\($0.id): \($0.message ?? "")" })")
        #expect(skipped.contains { $0.message?.contains("the server never grants part of a scope request (narrowed_scope: none)") == true })
        #expect(skipped.contains { $0.message?.contains("no metadata endpoint is configured, and RFC 8414 metadata is optional") == true })
        // No secret of the configuration reaches the reports.
        let markdown = try String(contentsOfFile: directory + "/reports/report.md", encoding: .utf8)
        for secret in ["reference-secret", "other-client-secret", "approver-password", "refuser-password"] {
            #expect(!markdown.contains(secret), "\(secret) is in report.md")
        }

        try AttestationFixture.write(["AF-LINK-021", "TOK-GEN-006"], to: directory + "/attest.txt")
        let certified = try certify(
            directory, narrowed: "narrowed_scope:\n  request: devices admin\n  granted: devices",
            attest: directory + "/attest.txt")
        #expect(certified.status == 0, "\(certified.output.suffix(2500))")
        #expect(certified.output.contains("\nPASSED BY THE SUITE, ATTESTED BY THE PARTNER: App Flip for iOS\n"), "\(certified.output.suffix(2500))")
        #expect(certified.document.outcome.certification?.map(\.status) == ["attested-by-partner"])
        // The narrowing, declared this time, is judged.
        #expect(certified.document.cases.filter { $0.verdict == "skip" }.count == skipped.count - 1)
        // The bundle verifies, and holds the configuration a reviewer weighs the verdict against, its secrets hidden.
        let verify = try ProgramRun.run(BuiltProducts.path("appflip-conformance"), ["verify", directory + "/bundle.tar"])
        #expect(
            verify.status == 0 && verify.output.contains("\ncertification run: PASSED BY THE SUITE, ATTESTED BY THE PARTNER: App Flip for iOS\n"),
            "\(verify.output)")
        #expect(verify.output.contains("(the bundle holds it, secrets hidden, at configuration/target.conf)"), "\(verify.output)")
        let bundle = try EvidenceBundle.verify(Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/bundle.tar"))))
        let copy = String(decoding: try #require(bundle.entries.first { $0.path == "configuration/target.conf" }).bytes, as: UTF8.self)
        #expect(
            copy.contains("client_secret_env: PARTNER_CLIENT_SECRET") && copy.contains("password: ${env:PARTNER_APPROVER_PASSWORD}")
                && copy.contains("    Cookie: ") && !copy.contains("reference-user=disabled"), "\(copy)")
    }
}
