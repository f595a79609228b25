import AppFlipHTTP
import AppFlipLoading
import AppFlipModel
import AppFlipReference
import AppFlipReporting
import AppFlipRunner
import AppFlipSetup
import AppFlipSyntax
import AppFlipSystem
import AppFlipTestSupport
import Foundation
import Testing

/// Skips never pass for checks: a run that checked nothing is not conformant, and a later skip keeps what
/// earlier steps found.
@Suite("Skipped cases and runs")
struct SkippedRunTests {
    @Test("A run in which every case was skipped is NOTHING TESTED (exit 4), and the report says why, never 'every check held'")
    func onlySkipped() throws {
        let cases = try SuiteRun.load().1.cases.filter { $0.profile == .token }
        let run = try SuiteRun.run(TargetUnderTest(), cases: cases)
        #expect(run.results.allSatisfy { $0.verdict == .skip })
        #expect(run.exitStatus == .nothingTested)
        let report = MarkdownReport(run: run, profiles: ["token", "site-association"]).render()
        #expect(report.contains("NOTHING TESTED"))
        #expect(report.contains("**NOT TESTED**: "), "each untested profile gives its reason")
        #expect(report.contains("endpoint is not configured"))
        #expect(report.contains("no case of this profile was selected"))
        #expect(!report.contains("every check"))
    }

    @Test("A run where one profile ran and another was skipped is conformant only for the one that ran")
    func partlyTested() throws {
        let all = try SuiteRun.load().1.cases
        let cases = all.filter { $0.profile == .appLink }.prefix(3) + all.filter { $0.profile == .token }.prefix(2)
        let run = try SuiteRun.run(
            TargetUnderTest(adapters: [.linkHandler: InProcessTarget(handler: LinkHandler(clientID: SuiteRun.configuration.clientID))]),
            cases: Array(cases))
        #expect(run.exitStatus == .conformant)
        let report = MarkdownReport(run: run, profiles: ["app-link", "token"]).render()
        #expect(report.contains("CONFORMANT for `app-link`"))
        #expect(
            report.contains("| `token` | ⏭️ skip | 2 | 0 | 0 | 0 | 0 | 0 | 2 | **NOT TESTED**: the authorize endpoint is not configured |"),
            "\(report.prefix(1200))")
        #expect(report.contains("(2 skipped)"))
    }

    @Test("A failure seen in an earlier step stands when a later step cannot be sent")
    func laterSkipKeepsEarlierFailure() throws {
        let text = """
            id: flip/demo/later-skip
            title: A step that fails, then one that does not apply to an http endpoint
            profile: flip
            scenario: consent
            steps:
              - link: base
                checks:
                  - requirement: AF-LINK-010 MUST
                    expect:
                      action: open
                      state: absent
              - request:
                  endpoint: token
                  tls: legacy
                  auth: none
                checks:
                  - requirement: TOK-GEN-001 MUST
                    expect:
                      legacy_tls: refused

            """
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("later-skip.case").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        let cases = try CaseLoader.load(from: path, catalog: SuiteRun.load().0).cases
        // An old-TLS probe of an http:// endpoint has no TLS to judge: step 2 is skipped before anything is sent.
        // Something listens there (the reachability check before the run connects), but nothing is ever sent.
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let targets = TargetUnderTest(
            adapters: [.linkHandler: InProcessTarget(handler: LinkHandler(clientID: SuiteRun.configuration.clientID))],
            endpoints: [.token: "http://127.0.0.1:\(listener.port)/token"])
        let run = try SuiteRun.run(targets, cases: cases)
        let result = try #require(run.results.first)
        #expect(result.verdict == .fail, "\(result.message ?? "")")
        #expect(result.findings.map(\.requirement.id) == ["AF-LINK-010"])
        #expect(result.message?.contains("skipped") == true)
    }
}
