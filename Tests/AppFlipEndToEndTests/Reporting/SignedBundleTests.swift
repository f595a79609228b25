import AppFlipCLI
import AppFlipDigest
import AppFlipEvidence
import AppFlipReporting
import AppFlipTestSupport
import Foundation
import Testing

/// Signed bundles: `run --sign-key` signs the manifest (which hashes every file) with an Ed25519 key through
/// OpenSSL, and `verify --trusted-key` accepts a bundle only when one of the trusted keys signed it, whatever else
/// holds. A bundle re-hashed after signing, or signed by another key, is NOT verified.
@Suite("Signed bundles", .serialized, .enabled(if: Ed25519.isAvailable))
struct SignedBundleTests {
    private func run(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
        let captured = Captured()
        let status = Command.main(arguments, console: captured.console)
        return (status, captured.out, captured.err)
    }

    /// A directory with two key pairs (`a.pem`/`a.pub`, `b.pem`/`b.pub`), and a signed and an unsigned bundle.
    private func fixture() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signed-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for name in ["a", "b"] {
            let key = try Ed25519.newKey()
            try key.privateKey.write(toFile: directory + "/\(name).pem", atomically: true, encoding: .utf8)
            try key.publicKey.write(toFile: directory + "/\(name).pub", atomically: true, encoding: .utf8)
        }
        for (bundle, signing) in [("signed", ["--sign-key", directory + "/a.pem"]), ("unsigned", [])] {
            let result = run(
                [
                    "run", "--target", "reference", "--profile", "site-association", "--quiet", "--seed", "3",
                    "--reports", directory + "/\(bundle)-reports", "--bundle", directory + "/\(bundle).tar",
                ] + signing)
            #expect(result.status == 0, "\(result.out)\n\(result.err)")
        }
        return directory
    }

    @Test("Verified with the trusted key; not with another key, nor unsigned when a key is asked for; without one, the signer is named")
    func trust() throws {
        let directory = try fixture()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fingerprint = try Ed25519.fingerprint(ofKeyPEM: Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/a.pub"))))
        #expect(fingerprint.hasPrefix("SHA256:") && fingerprint.count == 50, "\(fingerprint)")
        let trusted = run(["verify", directory + "/signed.tar", "--trusted-key", directory + "/a.pub"])
        #expect(trusted.status == 0 && trusted.out.contains("\nsignature: signed by \(fingerprint), a trusted key\n"), "\(trusted.out)")
        // Either of several trusted keys will do.
        let either = run(["verify", directory + "/signed.tar", "--trusted-key", directory + "/b.pub", "--trusted-key", directory + "/a.pub"])
        #expect(either.status == 0, "\(either.out)")
        let other = run(["verify", directory + "/signed.tar", "--trusted-key", directory + "/b.pub"])
        #expect(other.status == 1 && other.out.contains("which is none of the trusted keys") && other.out.contains("\nNOT verified"), "\(other.out)")
        let named = run(["verify", directory + "/signed.tar"])
        #expect(named.status == 0 && named.out.contains("signature: signed by \(fingerprint) (not compared with a key you trust"), "\(named.out)")
        // A file with two public keys trusts both, each named; a private key is refused, not taken for its public half.
        let pair = try String(contentsOfFile: directory + "/b.pub", encoding: .utf8) + String(contentsOfFile: directory + "/a.pub", encoding: .utf8)
        try pair.write(toFile: directory + "/both.pub", atomically: true, encoding: .utf8)
        let both = run(["verify", directory + "/signed.tar", "--trusted-key", directory + "/both.pub"])
        #expect(both.status == 0 && both.out.contains("\nsignature: signed by \(fingerprint), a trusted key\n"), "\(both.out)")
        #expect(both.out.hasPrefix("trusting SHA256:") && both.out.contains("trusting \(fingerprint) (from \(directory)/both.pub)"), "\(both.out)")
        #expect(both.out.split(separator: "\n").filter { $0.hasPrefix("trusting ") }.count == 2, "\(both.out)")
        let secret = run(["verify", directory + "/signed.tar", "--trusted-key", directory + "/a.pem"])
        #expect(secret.status == 2 && secret.err.contains("block 1 is a private key (PRIVATE KEY): give its public half"), "\(secret.err)")
        let unsigned = run(["verify", directory + "/unsigned.tar", "--trusted-key", directory + "/a.pub"])
        #expect(unsigned.status == 1 && unsigned.out.contains("signature: NONE, and --trusted-key asks for one"), "\(unsigned.out)")
        #expect(run(["verify", directory + "/unsigned.tar"]).out.contains("signature: none (the bundle is not signed"))
        // The private key is nowhere in the bundle or the reports.
        let archive = try Data(contentsOf: URL(fileURLWithPath: directory + "/signed.tar"))
        let privateBody = try String(contentsOfFile: directory + "/a.pem", encoding: .utf8).split(separator: "\n")[1]
        #expect(!String(decoding: archive, as: UTF8.self).contains(privateBody))
    }

    @Test("A signed bundle changed and re-hashed after signing, or re-signed with another key, is NOT verified")
    func forgeries() throws {
        let directory = try fixture()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let entries = try TarArchive.read(Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/signed.tar"))))
        // The manifest edited (its recorded seed) keeps its hashes whole, but no longer matches the signature.
        let edited = entries.map { entry -> TarArchive.Entry in
            guard entry.path == "manifest.json" else { return entry }
            return TarArchive.Entry(
                path: entry.path,
                bytes: Array(
                    String(decoding: entry.bytes, as: UTF8.self)
                        .replacingOccurrences(of: "\"seed\" : 3", with: "\"seed\" : 4").utf8))
        }
        try Data(try TarArchive.write(edited)).write(to: URL(fileURLWithPath: directory + "/edited.tar"))
        let result = run(["verify", directory + "/edited.tar"])
        #expect(
            result.status == 1 && result.out.contains("signature: NOT VALID: the signature does not check against manifest.json"), "\(result.out)")
        // Re-signed whole by the forger's own key: it checks, but it is not the trusted key.
        let forger = try Ed25519.newKey()
        let manifest = try #require(edited.first { $0.path == "manifest.json" }).bytes
        let signed = try Ed25519.sign(manifest, privateKeyPEM: Array(forger.privateKey.utf8))
        let signature =
            "{\"algorithm\": \"Ed25519\", \"public_key_fingerprint\": \"\(signed.fingerprint)\", \"public_key\": "
            + "\"\(signed.publicKey.replacingOccurrences(of: "\n", with: "\\n"))\", \"signature\": \"\(Base64URL.encode(signed.signature))\"}\n"
        let resigned = edited.map { $0.path == "signature.json" ? TarArchive.Entry(path: $0.path, bytes: Array(signature.utf8)) : $0 }
        try Data(try TarArchive.write(resigned)).write(to: URL(fileURLWithPath: directory + "/resigned.tar"))
        let trusted = run(["verify", directory + "/resigned.tar", "--trusted-key", directory + "/a.pub"])
        #expect(trusted.status == 1 && trusted.out.contains("signed by \(signed.fingerprint), which is none of the trusted keys"), "\(trusted.out)")
    }

    @Test("--sign-key needs --bundle and a private Ed25519 key, each refused before the run")
    func refused() throws {
        let directory = try fixture()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let alone = run(["run", "--target", "reference", "--sign-key", directory + "/a.pem"])
        #expect(alone.status == 2 && alone.err.contains("--sign-key signs the evidence bundle: give --bundle FILE too"), "\(alone.err)")
        let publicKey = run(["run", "--target", "reference", "--bundle", directory + "/x.tar", "--sign-key", directory + "/a.pub"])
        #expect(publicKey.status == 2 && publicKey.err.contains("holds no private key in PEM"), "\(publicKey.err)")
        let badTrust = run(["verify", directory + "/signed.tar", "--trusted-key", directory + "/a.tar.missing"])
        #expect(badTrust.status == 2, "\(badTrust.err)")
    }
}
