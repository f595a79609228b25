import AppFlipBase
import AppFlipLoading
import AppFlipModel
import AppFlipRunner
import AppFlipSystem
import AppFlipTestSupport
import Foundation
import Testing

/// The old-TLS probes (`tls: legacy`), against servers played byte for byte: whatever answers the ClientHello on the
/// configured https port decides the verdict. No root and no TLS library needed.
@Suite("Old-TLS probes", .serialized)
struct LegacyTLSProbeTests {
    /// Accepts connections on loopback; each gets the ClientHello read, then `reply` (nil: close at once).
    final class HelloServer: @unchecked Sendable {
        let listener: TCPListener
        private let hellos = Locked<[[UInt8]]>([])
        var received: [[UInt8]] { hellos.withLock { $0 } }

        init(reply: [UInt8]?) throws {
            listener = try TCPListener(host: "127.0.0.1", port: 0)
            let listener = self.listener
            Thread { [self] in
                while let socket = listener.accept() {
                    let bytes = (try? socket.read(deadline: Platform.monotonicSeconds() + 2)) ?? []
                    hellos.withLock { $0.append(bytes) }
                    if let reply { try? socket.write(reply, deadline: Platform.monotonicSeconds() + 2) }
                    socket.close()
                }
            }.start()
        }

        func stop() { listener.close() }
    }

    private func probe(_ id: String, reply: [UInt8]?) throws -> CaseResult {
        let conformanceCase = try #require(try SuiteRun.load().1.cases.first { $0.id == id })
        let server = try HelloServer(reply: reply)
        defer { server.stop() }
        let base = "https://127.0.0.1:\(server.listener.port)"
        let targets = TargetUnderTest(
            endpoints: [.authorize: base + "/oauth/authorize", .token: base + "/oauth/token", .revoke: base + "/oauth/revoke"],
            clientSecret: "never-sent")
        let result = try #require(try SuiteRun.run(targets, cases: [conformanceCase]).results.first)
        let hellos = server.received
        #expect(hellos.count == 1 && hellos.first?.first == 0x16, "one ClientHello and no HTTP request: \(hellos)")
        #expect(!hellos.contains { String(decoding: $0, as: UTF8.self).contains("never-sent") })
        return result
    }

    @Test(
        "A ServerHello picking TLS 1.0 or 1.1 fails under the endpoint's https requirement",
        arguments: [
            ("authorize/transport/legacy-tls", "AF-AUTHZ-001", UInt16(0x0301)), ("token/transport/legacy-tls", "TOK-GEN-001", UInt16(0x0302)),
        ])
    func oldVersionFails(id: String, requirement: String, version: UInt16) throws {
        let result = try probe(id, reply: TLSRecords.serverHello(version: version, cipher: 0x002F))
        #expect(result.verdict == .fail)
        #expect(result.findings.map(\.requirement.id) == [requirement])
        #expect(result.findings.first?.observed.contains("TLS_RSA_WITH_AES_128_CBC_SHA") == true)
    }

    @Test("An alert (protocol_version or handshake_failure), a close, or a ServerHello insisting on TLS 1.2 passes")
    func refusalsPass() throws {
        #expect(try probe("authorize/transport/legacy-tls", reply: TLSRecords.alert(70)).verdict == .pass)
        #expect(try probe("token/transport/legacy-tls", reply: TLSRecords.alert(40)).verdict == .pass)
        #expect(try probe("authorize/transport/legacy-tls", reply: nil).verdict == .pass)
        #expect(try probe("authorize/transport/legacy-tls", reply: TLSRecords.serverHello(version: 0x0303, cipher: 0xC02F)).verdict == .pass)
    }

    @Test("Plain HTTP on the TLS port is refused TLS, so it passes with what was seen")
    func httpOnTLSPort() throws {
        let result = try probe("authorize/transport/legacy-tls", reply: Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8))
        #expect(result.verdict == .pass)
        #expect(result.checks.first?.observed.contains("not a TLS record") == true, "\(result.checks)")
    }

    @Test("Lint: 'legacy_tls' needs 'tls: legacy', and a 'tls: legacy' step takes no other check")
    func lint() {
        func diagnostics(_ request: String, _ expect: String) -> [String] {
            let text =
                "id: a/b\ntitle: t\nprofile: authorize\nscenario: consent\nsteps:\n  - request:\n      endpoint: authorize\n"
                + request + "    checks:\n      - requirement: AF-AUTHZ-001 MUST\n        expect:\n" + expect
            var loader = CaseLoader(catalog: nil)
            _ = loader.load(bytes: Array(text.utf8), file: "p.case", group: "g")
            return loader.diagnostics.map(\.message)
        }
        #expect(diagnostics("", "          legacy_tls: refused\n").contains { $0.contains("with 'tls: legacy'") })
        #expect(diagnostics("      tls: legacy\n", "          status: 200\n").contains { $0.contains("only 'legacy_tls' judges it") })
        #expect(diagnostics("      tls: legacy\n", "          plain_http: refused\n").contains { $0.contains("with 'scheme: http'") })
        #expect(diagnostics("      tls: modern\n", "          legacy_tls: refused\n").contains { $0.contains("'tls' takes 'legacy'") })
        #expect(diagnostics("      tls: legacy\n", "          legacy_tls: refused\n").isEmpty)
    }
}
