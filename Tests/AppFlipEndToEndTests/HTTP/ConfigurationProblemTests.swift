import AppFlipHTTP
import AppFlipModel
import AppFlipReferenceServer
import AppFlipReporting
import AppFlipRunner
import AppFlipTestSupport
import Foundation
import Testing

/// Wrong client credentials in the configuration are one configuration problem, said once, never a row of
/// requirement failures.
@Suite("Configuration problems", .serialized)
struct ConfigurationProblemTests {
    static let settings = ReferenceServerConfiguration(clientID: SuiteRun.configuration.clientID, clientSecret: "the-real-secret")

    private func run(secret: String, wrap: (@escaping HTTPServer.Handler) -> HTTPServer.Handler = { $0 }) throws -> RunResult {
        let reference = ReferenceServer(configuration: Self.settings)
        let server = try HTTPServer(handler: wrap(reference.handler))
        server.start()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let targets = TargetUnderTest(
            endpoints: [.authorize: base + "/oauth/authorize", .token: base + "/oauth/token", .revoke: base + "/oauth/revoke"],
            clientSecret: secret, decorations: [.consent: [("Cookie", "reference-user=approver")], .deny: [("Cookie", "reference-user=refuser")]],
            secondClient: (ReferenceServerConfiguration.secondClientID, ReferenceServerConfiguration.secondClientSecret))
        var configuration = SuiteRun.configuration
        configuration.projectID = Self.settings.projectID
        let cases = try SuiteRun.load().1.cases.filter { $0.profile == .token || $0.profile == .authorize }
        return try SuiteRun.run(targets, cases: cases, configuration: configuration)
    }

    private func expectOneProblem(_ run: RunResult) {
        #expect(run.exitStatus == .configurationRejected)
        #expect(run.count(.fail) == 0, "\(run.results.filter { $0.verdict == .fail }.map(\.conformanceCase.id))")
        #expect(run.configurationProblems.count == 1)
        #expect(run.results.filter { $0.configurationProblem != nil }.count >= 10)
        let report = MarkdownReport(run: run, profiles: ["authorize", "token"]).render()
        #expect(report.components(separatedBy: "Configuration problem**").count == 2, "said once at the top")
        #expect(!report.contains("the-real-secret") && !report.contains("not-the-secret"))
    }

    @Test("A throttled answer (429) is an error that says so, never a requirement failure")
    func throttledIsAnError() throws {
        let target = try RecordingServer { _ in
            .bytes(Array("HTTP/1.1 429 Too Many Requests\r\nRetry-After: 30\r\nContent-Length: 0\r\n\r\n".utf8))
        }
        defer { target.stop() }
        let cases = try SuiteRun.load().1.cases.filter { $0.profile == .authorize && $0.needsNothingSpecial && !$0.needsHTTPS && !$0.probesSignIn }
        let run = try SuiteRun.run(
            TargetUnderTest(
                endpoints: [.authorize: "http://127.0.0.1:\(target.port)/oauth/authorize"],
                decorations: [.consent: [("Cookie", "s=1")]]), cases: cases)
        #expect(run.count(.fail) == 0 && run.count(.warn) == 0)
        #expect(run.count(.error) >= 10)
        let odd = run.results.filter {
            $0.verdict != .skip
                && !($0.verdict == .error && ($0.message ?? "").contains("throttled this request (429 Too Many Requests, Retry-After: 30)"))
        }
        #expect(odd.isEmpty, "\(odd.map { "\($0.conformanceCase.id): \($0.verdict) \($0.message ?? "")" })")
    }

    @Test("A wrong configured secret is found before the run: the cases that need it are not sent")
    func preflight() throws {
        let run = try run(secret: "not-the-secret")
        expectOneProblem(run)
        #expect(run.results.filter { $0.configurationProblem != nil }.allSatisfy { $0.message?.hasPrefix("not sent") == true })
        #expect(run.results.contains { $0.conformanceCase.profile == .authorize && $0.verdict == .pass }, "authorize cases still run")
    }

    @Test("A server that checks the code before the client is caught after the run, from its invalid_client answers")
    func afterTheRun() throws {
        let run = try run(
            secret: "not-the-secret",
            wrap: { reference in
                { request in
                    // Answers the preflight's impossible code with invalid_grant, hiding the client check.
                    if request.path == "/oauth/token", String(decoding: request.body, as: UTF8.self).contains("appflip-preflight-") {
                        return HTTPResponse(
                            status: 400, headers: HTTPHeaders([("Content-Type", "application/json")]),
                            body: Array(#"{"error":"invalid_grant"}"#.utf8))
                    }
                    return reference(request)
                }
            })
        expectOneProblem(run)
    }

    @Test("The right secret raises no configuration problem")
    func rightSecret() throws {
        let run = try run(secret: "the-real-secret")
        #expect(run.configurationProblems.isEmpty)
        #expect(run.exitStatus == .conformant)
    }
}
