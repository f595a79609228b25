import AppFlipHTTP
import AppFlipReferenceServer
import AppFlipTLS
import AppFlipTestSupport
import Foundation
import Testing

/// TLS faults as the partner's findings, judged as Google's fetchers meet them: a certificate from a trusted CA that
/// has expired or names another host fails the endpoints' HTTPS requirements (exit 1, the reason and what was
/// presented, no advice to trust a CA); one nobody trusts stays the run's setup (exit 3, with that advice). A chain
/// missing its intermediate, and a key exchange without forward secrecy, are judged on the certificate probe.
@Suite("TLS certificates as findings", .serialized, .enabled(if: TLSTrust.isAvailable))
struct CertificateFindingTests {
    /// The reference server over TLS in this process, its certificate issued by a CA the run is given with --ca-file.
    final class Target {
        let directory: String
        let server: HTTPServer

        init(flaw: CertificateAuthority.Flaw = .none, names: [String] = ["127.0.0.1"]) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("cert-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let authority = try CertificateAuthority()
            try authority.pem.write(toFile: directory + "/ca.pem", atomically: true, encoding: .utf8)
            let reference = ReferenceServer(configuration: ReferenceServerConfiguration(clientSecret: "reference-secret"))
            server = try HTTPServer(tls: try authority.serverIdentity(for: names, flaw: flaw), handler: reference.handler)
            server.start()
        }

        func run(filter: String? = nil) throws -> (Int32, String) {
            try TLSFixture.runSuite(
                base: "https://127.0.0.1:\(server.port)", directory: directory, caFile: directory + "/ca.pem",
                profiles: ["authorize", "token"], filter: filter)
        }

        func stop() {
            server.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    @Test(
        "A certificate of a trusted CA that has expired, or names another host, fails AF-AUTHZ-001 and TOK-GEN-001 (exit 1)",
        arguments: [
            ("expired", CertificateAuthority.Flaw.expired, ["127.0.0.1"], "certificate has expired"),
            ("another host", .none, ["other.example"], "IP address mismatch"),
        ])
    func notValidHere(_ name: String, _ flaw: CertificateAuthority.Flaw, _ names: [String], _ reason: String) throws {
        let target = try Target(flaw: flaw, names: names)
        defer { target.stop() }
        let (status, text) = try target.run()
        #expect(status == 1, "\(name): \(text)")
        for id in ["authorize/transport/certificate", "token/transport/certificate-token", "token/transport/certificate-revoke"] {
            #expect(text.contains("FAIL \(id) "), "\(name): \(id)")
        }
        #expect(text.contains("AF-AUTHZ-001 MUST:") && text.contains("TOK-GEN-001 MUST:"), "\(name): \(text)")
        #expect(
            text.contains("is not valid for it: \(reason) (it presented CN=\(names[0]), issued by CN=AppFlip Conformance test CA"),
            "\(name): the reason and what was presented: \(text)")
        #expect(!text.contains("To trust a staging CA"), "\(name): the server's fault, not the run's setup: \(text)")
    }

    @Test("A certificate nobody the run trusts vouches for stays setup: exit 3, the way out, and the certificate presented")
    func untrustedIssuer() throws {
        let target = try Target(flaw: .untrustedIssuer)
        defer { target.stop() }
        let (status, text) = try target.run()
        #expect(status == 3, "\(text)")
        #expect(
            text.contains("cannot be verified: unable to get local issuer certificate (it presented CN=127.0.0.1, issued by CN=An untrusted CA"),
            "\(text)")
        #expect(text.contains("To trust a staging CA") && !text.contains("FAIL "), "\(text)")
    }

    @Test("A valid certificate with its chain and TLS 1.3 passes the certificate probes")
    func valid() throws {
        let target = try Target()
        defer { target.stop() }
        let (status, text) = try target.run(filter: "*transport/certificate*")
        #expect(status == 0, "\(text)")
        #expect(text.contains("3 cases: 3 pass"), "\(text)")
    }
}

/// The chain the server sends, and the key exchange it agrees, behind a TLS front made with the openssl command (a
/// root, an intermediate, a leaf; RSA keys, so a static RSA exchange can be agreed).
@Suite("TLS chains and key exchange", .serialized, .enabled(if: TLSFixture.available))
struct TLSChainTests {
    @Test(
        "A server that does not send its intermediate fails, though --ca-file holds it; sending it passes",
        arguments: [false, true])
    func intermediate(sent: Bool) throws {
        let fixture = try TLSFixture(chain: sent ? .sendsIntermediate : .leafOnly)
        defer { fixture.stop() }
        let (status, text) = try fixture.runSuite(profiles: ["authorize", "token"], filter: "*transport/certificate*")
        if sent {
            #expect(status == 0 && text.contains("3 cases: 3 pass"), "\(text)")
        } else {
            #expect(status == 1, "\(text)")
            #expect(text.contains("FAIL authorize/transport/certificate") && text.contains("but not CN=Staging Intermediate"), "\(text)")
            #expect(text.contains("3 fail, 0 error"), "\(text)")
        }
    }

    @Test("TLS 1.2 with a static RSA key exchange warns under AF-AUTHZ-001-S and TOK-GEN-001-S, and fails nothing")
    func noForwardSecrecy() throws {
        let fixture = try TLSFixture(options: ["no-fs"])
        defer { fixture.stop() }
        let (status, text) = try fixture.runSuite(profiles: ["authorize", "token"], filter: "*transport/certificate*")
        #expect(status == 0, "\(text)")
        #expect(text.contains("WARN authorize/transport/certificate") && text.contains("AF-AUTHZ-001-S SHOULD:"), "\(text)")
        #expect(text.contains("AES128-GCM-SHA256") && text.contains("no forward secrecy"), "\(text)")
        #expect(text.contains("0 pass, 0 info, 3 warn"), "\(text)")
    }

    @Test("A certificate's names are written unambiguously (RFC 4514): a ', CN=' or '/' inside a value stays inside it")
    func subjectEscaping() throws {
        let authority = try CertificateAuthority(name: "nul byte, CN=accounts.google.com/O=Google+L=x;y")
        let subject = try #require(authority.subject)
        // Before: "CN=nul byte, CN=accounts.google.com" and "O=Google+L=x;y …" read as entries of their own.
        #expect(subject.hasPrefix("CN=nul byte\\, CN=accounts.google.com/O=Google\\+L=x\\;y "), "\(subject)")
        #expect(!subject.replacingOccurrences(of: "\\,", with: "").contains(","), "one entry: every comma in it escaped: \(subject)")
        // An ordinary name is as before.
        #expect(try CertificateAuthority(name: "Staging CA").subject?.hasPrefix("CN=Staging CA ") == true)
    }
}
