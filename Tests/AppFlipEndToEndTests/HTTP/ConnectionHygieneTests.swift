import AppFlipHTTP
import AppFlipModel
import AppFlipTLS
import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipRunner

/// A probe that may leave part of its request unread (the token endpoint's GET carries a form body) goes on a
/// connection of its own: against a server that leaves the body unread (Python's http.server), the probe itself
/// warns under TOK-GEN-008, and no later request of the run reads the leftover bytes, so the same target gets the
/// same verdicts run after run.
@Suite("Connection hygiene", .serialized, .enabled(if: PlainPythonServer.python3 != nil))
struct ConnectionHygieneTests {
    /// The get-method probe, then the same case again on the same worker: before the probes went alone, the second
    /// case's first request was read by the server behind the first case's unread body and answered 501.
    private func run(_ server: PlainPythonServer, seed: UInt64, base: String? = nil, network: Network = .system) throws -> RunResult {
        let probe = try #require(try SuiteRun.load().1.cases.first { $0.id == "token/request/get-method" })
        var after = probe
        after.id += "/after"
        let base = base ?? server.base
        var targets = TargetUnderTest(
            endpoints: [.authorize: base + "/authorize", .token: base + "/token"],
            clientSecret: PlainPythonServer.secret, decorations: [.consent: [("Cookie", "user=approver")]])
        targets.network = network
        var configuration = SuiteRun.configuration
        configuration.seed = seed
        return try SuiteRun.run(targets, cases: [probe, after, probe, after], configuration: configuration, jobs: 1)
    }

    @Test("A server that leaves a GET's body unread: that probe warns under TOK-GEN-008, nothing else is touched, every run alike")
    func bodyLeftUnread() throws {
        let server = try PlainPythonServer()
        defer { server.stop() }
        var verdicts: [[String]] = []
        for seed: UInt64 in [1, 2] {
            let run = try run(server, seed: seed)
            for result in run.results {
                #expect(result.verdict == .warn, "\(result.conformanceCase.id): \(result.verdict) \(result.message ?? "") \(result.findings)")
                let framing = result.checks.filter { $0.requirement == RequestFraming.requirement }
                #expect(framing.count == 1 && framing[0].verdict == .warn)
                #expect(framing.first?.observed.contains("answered 501 where a fresh connection got 405") == true, "\(framing)")
                #expect(result.findings.allSatisfy { $0.requirement == RequestFraming.requirement }, "only TOK-GEN-008 is blamed")
            }
            verdicts.append(run.results.map { "\($0.conformanceCase.id) \($0.verdict)" })
        }
        #expect(verdicts[0] == verdicts[1])
    }

    @Test(
        "Behind a TLS front the same server warns the same way: TOK-GEN-008 is judged over https too",
        .enabled(if: TLSFixture.available))
    func bodyLeftUnreadOverTLS() throws {
        let server = try PlainPythonServer()
        defer { server.stop() }
        let port = try #require(server.base.split(separator: ":").last.flatMap { Int($0) })
        let front = try TLSFixture(upstream: port)
        defer { front.stop() }
        let trust = try TLSTrust(caFile: front.caFile, pem: [UInt8](Data(contentsOf: URL(fileURLWithPath: front.caFile))))
        let run = try run(server, seed: 1, base: "https://127.0.0.1:\(front.port)", network: Network(trust: trust))
        for result in run.results {
            #expect(result.verdict == .warn, "\(result.conformanceCase.id): \(result.verdict) \(result.message ?? "") \(result.findings)")
            let framing = result.checks.filter { $0.requirement == RequestFraming.requirement }
            #expect(framing.count == 1 && framing.first?.observed.contains("answered 501 where a fresh connection got 405") == true, "\(framing)")
        }
    }

    @Test("A server that closes the connection after a GET with a body (RFC 9110 §9.3.1 allows it) passes TOK-GEN-008")
    func closesInstead() throws {
        let server = try PlainPythonServer(closesAfterGETBody: true)
        defer { server.stop() }
        let run = try run(server, seed: 1)
        for result in run.results {
            #expect(result.verdict == .pass, "\(result.conformanceCase.id): \(result.verdict) \(result.message ?? "") \(result.findings)")
            let framing = result.checks.first { $0.requirement == RequestFraming.requirement }
            #expect(
                framing?.observed == "the server closed the connection after answering GET /token with a 57-byte body",
                "\(String(describing: framing))")
        }
    }
}
