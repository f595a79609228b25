import AppFlipDigest
import AppFlipReporting
import AppFlipTestSupport
import Foundation
import Testing

/// CERTIFIED is a reviewer's signed decision: a partner's run never says it; `certify` writes an in-toto Statement in
/// a DSSE envelope only for a bundle that verifies, with every program holding on the reviewer's own attestations;
/// `verify CERTIFICATE --trusted-key` is the one place that prints CERTIFIED.
@Suite("Certificates", .serialized, .enabled(if: Ed25519.isAvailable))
struct CertificateTests {
    private static let binary = BuiltProducts.path("appflip-conformance")

    /// A partner's signed native-client certification bundle of the reference, with the partner's attestation, and
    /// both parties' keys: `partner.pem/.pub`, `reviewer.pem/.pub`, `partner-attest.txt`, `reviewer-attest.txt`.
    private func partnerBundle() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("certificate-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let partner = try SigningKeys.write("partner", in: directory)
        _ = try SigningKeys.write("reviewer", in: directory)
        try AttestationFixture.write(["NAT-MIX-001"], to: directory + "/partner-attest.txt", note: "The partner's own word on its app.")
        try
            "attestations:\n  - requirement: NAT-MIX-001\n    verdict: pass\n    by: Jane Reviewer\n    date: 2026-12-01\n    note: Seen on the partner's test phone.\n"
            .write(toFile: directory + "/reviewer-attest.txt", atomically: true, encoding: .utf8)
        let run = try ProgramRun.run(
            Self.binary,
            [
                "run", "--target", "reference", "--certification", "native-client", "--operator", "Partner CI", "--attest",
                directory + "/partner-attest.txt", "--reports", directory + "/reports", "--bundle", directory + "/b.tar", "--sign-key",
                partner.privateKey,
            ])
        // The partner's run: passed and attested by the partner, never CERTIFIED.
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("\nPASSED BY THE SUITE, ATTESTED BY THE PARTNER: Native app as an OAuth client\n"), "\(run.output)")
        #expect(!run.output.contains("CERTIFIED:"), "\(run.output)")
        let markdown = try String(contentsOfFile: directory + "/reports/report.md", encoding: .utf8)
        #expect(!markdown.contains("CERTIFIED:") && !markdown.contains("signed the judgement off") && !markdown.contains("signed off"))
        #expect(markdown.contains("**pass**, attested by Test Reviewer on 2026-11-28"), "\(markdown.suffix(3000))")
        return directory
    }

    private func certify(_ directory: String, _ extra: [String]) throws -> (status: Int32, output: String) {
        try ProgramRun.run(
            Self.binary,
            [
                "certify", directory + "/b.tar", "--sign-key", directory + "/reviewer.pem", "--reviewer", "Jane Reviewer, Example Certification",
                "--trusted-key", directory + "/partner.pub", "--out", directory + "/certificate.json",
            ] + extra)
    }

    @Test("Both roles, two keys: the partner's bundle, the reviewer's re-run and attestations, a certificate only verify calls CERTIFIED")
    func twoRoles() throws {
        let directory = try partnerBundle()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let certified = try certify(directory, ["--attest", directory + "/reviewer-attest.txt", "--rerun", "--target", "reference"])
        #expect(certified.status == 0, "\(certified.output)")
        #expect(certified.output.contains("attested in the bundle (shown, not counted): NAT-MIX-001 pass by Test Reviewer"), "\(certified.output)")
        #expect(!certified.output.contains("CERTIFIED:"), "certify says what it wrote; verify says CERTIFIED: \(certified.output)")
        let bundle = SHA256.hexDigest(Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/b.tar"))))
        let verify = try ProgramRun.run(
            Self.binary, ["verify", directory + "/certificate.json", "--trusted-key", directory + "/reviewer.pub", "--bundle", directory + "/b.tar"])
        #expect(verify.status == 0, "\(verify.output)")
        let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        #expect(
            verify.output.contains(
                "\nCERTIFIED: Native app as an OAuth client by Jane Reviewer, Example Certification on \(today) for bundle sha256 \(bundle)\nverified"
            ),
            "\(verify.output)")
        #expect(verify.output.contains("attested by the reviewer: NAT-MIX-001 pass by Jane Reviewer on 2026-12-01"), "\(verify.output)")
        #expect(verify.output.contains("attested by the partner (shown, not counted): NAT-MIX-001 pass by Test Reviewer"), "\(verify.output)")
        #expect(verify.output.contains("re-run: reproduced ") && verify.output.contains(" on \(today)\n"), "\(verify.output)")
        // The envelope as DSSE and in-toto define it.
        let envelope = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/certificate.json"))) as? [String: Any])
        #expect(envelope["payloadType"] as? String == "application/vnd.in-toto+json")
        let payload = try #require((envelope["payload"] as? String).flatMap { Data(base64Encoded: $0) })
        let statement = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
        #expect(statement["_type"] as? String == "https://in-toto.io/Statement/v1")
        let subject = try #require((statement["subject"] as? [[String: Any]])?.first)
        #expect((subject["digest"] as? [String: String])?["sha256"] == bundle)
    }

    @Test("An implementation nobody here wrote (Python's cryptography) checks the DSSE signature and the in-toto subject")
    func independentCheck() throws {
        let available = try ProgramRun.run("/usr/bin/env", ["python3", "-c", "import cryptography"]).status == 0
        guard available else {
            #expect(ProcessInfo.processInfo.environment["CI"] != "true", "python3's cryptography is missing: .ci/run installs it")
            return
        }
        let directory = try partnerBundle()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try certify(directory, ["--attest", directory + "/reviewer-attest.txt"]).status == 0)
        let script = """
            import base64, hashlib, json, sys
            from cryptography.hazmat.primitives.serialization import load_pem_public_key
            envelope = json.load(open(sys.argv[1]))
            key = load_pem_public_key(open(sys.argv[2], "rb").read())
            body = base64.b64decode(envelope["payload"])
            kind = envelope["payloadType"].encode()
            pae = b"DSSEv1 " + str(len(kind)).encode() + b" " + kind + b" " + str(len(body)).encode() + b" " + body
            for signature in envelope["signatures"]:
                key.verify(base64.b64decode(signature["sig"]), pae)
            statement = json.loads(body)
            assert statement["_type"] == "https://in-toto.io/Statement/v1"
            assert statement["subject"][0]["digest"]["sha256"] == hashlib.sha256(open(sys.argv[3], "rb").read()).hexdigest()
            print("verified", statement["predicate"]["programs"][0]["program"])
            """
        try script.write(toFile: directory + "/check.py", atomically: true, encoding: .utf8)
        let checked = try ProgramRun.run(
            "/usr/bin/env", ["python3", directory + "/check.py", directory + "/certificate.json", directory + "/reviewer.pub", directory + "/b.tar"])
        #expect(checked.status == 0 && checked.output.contains("verified native-client"), "\(checked.output)")
        // The same check fails on a payload changed after signing: the script can say no.
        var envelope = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/certificate.json"))) as? [String: Any])
        let payload = try #require((envelope["payload"] as? String).flatMap { Data(base64Encoded: $0) })
        let edited = String(decoding: payload, as: UTF8.self).replacingOccurrences(of: "Jane Reviewer", with: "Jane Forger")
        envelope["payload"] = Data(edited.utf8).base64EncodedString()
        try JSONSerialization.data(withJSONObject: envelope).write(to: URL(fileURLWithPath: directory + "/edited.json"))
        let refused = try ProgramRun.run(
            "/usr/bin/env", ["python3", directory + "/check.py", directory + "/edited.json", directory + "/reviewer.pub", directory + "/b.tar"])
        #expect(refused.status != 0, "\(refused.output)")
        let ours = try ProgramRun.run(Self.binary, ["verify", directory + "/edited.json", "--trusted-key", directory + "/reviewer.pub"])
        #expect(ours.status == 1 && ours.output.contains("no signature checks against a trusted key") && !ours.output.contains("CERTIFIED:"))
    }

    @Test("No certificate, nothing written: unattested by the reviewer, a public key to sign with, a requirement of no program, a date to come")
    func refusals() throws {
        let directory = try partnerBundle()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let out = directory + "/certificate.json"
        // The partner's attestation in the bundle is not the reviewer's: without the reviewer's own, no certificate.
        let unattested = try certify(directory, [])
        #expect(unattested.status == 1, "\(unattested.output)")
        #expect(unattested.output.contains("NOT CERTIFIED: Native app as an OAuth client (not attested by you: NAT-MIX-001)"), "\(unattested.output)")
        let publicKey = try ProgramRun.run(
            Self.binary,
            [
                "certify", directory + "/b.tar", "--sign-key", directory + "/reviewer.pub", "--reviewer", "Jane", "--out", out,
                "--attest", directory + "/reviewer-attest.txt",
            ])
        #expect(publicKey.status == 2 && publicKey.output.contains("a reviewer signs with a private key, not a public one"), "\(publicKey.output)")
        try
            "attestations:\n  - requirement: AF-LINK-021\n    verdict: pass\n    by: Jane Reviewer\n    date: 2026-12-01\n    note: Not of this program at all.\n"
            .write(toFile: directory + "/other.txt", atomically: true, encoding: .utf8)
        let other = try certify(directory, ["--attest", directory + "/other.txt"])
        #expect(other.status == 2 && other.output.contains("other.txt:2:18: error: AF-LINK-021 is no requirement of the certification's programs"))
        try
            "attestations:\n  - requirement: NAT-MIX-001\n    verdict: pass\n    by: Jane Reviewer\n    date: 2999-12-31\n    note: Dated in the future.\n"
            .write(toFile: directory + "/future.txt", atomically: true, encoding: .utf8)
        let future = try certify(directory, ["--attest", directory + "/future.txt"])
        #expect(future.status == 2 && future.output.contains("future.txt:5:11: error: 'date' 2999-12-31 is after the run ("), "\(future.output)")
        // A bundle signed by a key the reviewer does not trust.
        let untrusted = try ProgramRun.run(
            Self.binary,
            [
                "certify", directory + "/b.tar", "--sign-key", directory + "/reviewer.pem", "--reviewer", "Jane", "--out", out,
                "--attest", directory + "/reviewer-attest.txt", "--trusted-key", directory + "/reviewer.pub",
            ])
        #expect(untrusted.status == 1 && untrusted.output.contains("the bundle does not verify (above): no certificate written"))
        #expect(!FileManager.default.fileExists(atPath: out), "a refused certification wrote a certificate")
        // A certificate checked against another key, or for another bundle, is NOT verified.
        #expect(try certify(directory, ["--attest", directory + "/reviewer-attest.txt"]).status == 0)
        let otherKey = try ProgramRun.run(Self.binary, ["verify", out, "--trusted-key", directory + "/partner.pub"])
        #expect(otherKey.status == 1 && otherKey.output.contains("no signature checks against a trusted key (it names SHA256:"), "\(otherKey.output)")
        try Data("another bundle".utf8).write(to: URL(fileURLWithPath: directory + "/other.tar"))
        let otherBundle = try ProgramRun.run(
            Self.binary, ["verify", out, "--trusted-key", directory + "/reviewer.pub", "--bundle", directory + "/other.tar"])
        #expect(otherBundle.status == 1 && otherBundle.output.contains("/other.tar hashes sha256 "), "\(otherBundle.output)")
        #expect(!otherBundle.output.contains("CERTIFIED:"), "\(otherBundle.output)")
        let keyless = try ProgramRun.run(Self.binary, ["verify", out])
        #expect(keyless.status == 2 && keyless.output.contains("is a certificate: give --trusted-key"), "\(keyless.output)")
    }
}
