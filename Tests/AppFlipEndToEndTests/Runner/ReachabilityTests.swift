import AppFlipCLI
import AppFlipModel
import AppFlipReference
import AppFlipRunner
import AppFlipSetup
import AppFlipSystem
import AppFlipTestSupport
import Foundation
import Testing

/// An endpoint nobody answers on: checked once before the run, its cases are not sent, and the run says so once
/// (exit 3), instead of one identical error per case; the other profiles still run.
@Suite("Unreachable target", .serialized)
struct ReachabilityTests {
    /// A loopback port nothing listens on: bound, then closed.
    private func closedPort() throws -> Int {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        let port = listener.port
        listener.close()
        return port
    }

    @Test("Cases needing an unreachable origin are not sent; cases needing a reachable one run")
    func notSent() throws {
        let port = try closedPort()
        let all = try SuiteRun.load().1.cases
        // Transport probes are not sent through the preflight (whether they connect is what they judge): left out here.
        let cases = Array(
            all.filter {
                $0.profile == .authorize && $0.group != "authorize/hardening"
                    && !$0.httpRequests.contains { $0.transportProbe != nil }
            }.prefix(4)
                + all.filter { $0.profile == .appLink }.prefix(2))
        let targets = TargetUnderTest(
            adapters: [.linkHandler: InProcessTarget(handler: LinkHandler(clientID: SuiteRun.configuration.clientID))],
            endpoints: [
                .authorize: "http://127.0.0.1:\(port)/authorize", .token: "http://127.0.0.1:\(port)/token",
                .revoke: "http://127.0.0.1:\(port)/revoke",
            ], clientSecret: "s")
        let started = Date()
        let run = try SuiteRun.run(targets, cases: cases)
        #expect(Date().timeIntervalSince(started) < 60)  // cases sent to the dead endpoint would each wait out their timeout
        let unreachable = run.results.filter { $0.unreachableTarget != nil }
        #expect(unreachable.count == 4, "\(run.results.map { "\($0.conformanceCase.id): \($0.verdict) \($0.message ?? "")" })")
        #expect(unreachable.allSatisfy { $0.verdict == .error && $0.message?.contains("could not be reached before the run") == true })
        #expect(run.results.filter { $0.conformanceCase.profile == .appLink }.allSatisfy { $0.verdict == .pass })
        #expect(run.unreachableTargets.map(\.target.key) == ["http://127.0.0.1:\(port)"])
        // The reason is kept as a value, said once by the console and report.md; each case's message says it was not sent.
        let reason = try #require(run.unreachableTargets.first?.target.reason)
        #expect(reason.hasPrefix("http://127.0.0.1:\(port) could not be reached before the run ("), "\(reason)")
        #expect(unreachable.allSatisfy { $0.message == "not sent: " + reason })
        #expect(run.exitStatus == .inconclusive)
    }

    @Test("The console says it once, not once per case")
    func console() throws {
        let port = try closedPort()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("unreachable-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = directory + "/target"
        try """
        client_id: google-client
        project_id: reference-project
        link: https://app.example/flip
        endpoints:
          authorize: http://127.0.0.1:\(port)/authorize

        """.write(toFile: config, atomically: true, encoding: .utf8)
        let captured = Captured()
        let status = Command.main(
            [
                "run", "--config", config, "--profile", "authorize", "--reports", directory + "/reports",
                "--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog,
            ], console: captured.console)
        #expect(status == 3, "\(captured.err.suffix(800))")
        let lines = captured.err.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("TARGET UNREACHABLE: http://127.0.0.1:\(port)") }.count == 1, "\(captured.err.suffix(800))")
        #expect(!lines.contains { $0.hasPrefix("ERROR ") }, "\(captured.err.suffix(800))")
        #expect(FileManager.default.fileExists(atPath: directory + "/reports/report.md"))
    }
}
