import AppFlipLoading
import AppFlipModel
import AppFlipRunner
import AppFlipTestSupport
import Foundation
import Testing

/// Building a link is part of the step's time: a link too large to build within the timeout is an error that says
/// so, and is not sent; within the timeout, the handler gets what is left.
@Suite("Link building budget")
struct LinkBudgetTests {
    private func largeLinkCase() throws -> ConformanceCase {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("budget-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text =
            "id: budget/large\ntitle: t\nprofile: app-link\nscenario: consent\nlink:\n  set:\n    state: ${repeat:1000000:A}\n"
            + "requirement: AF-LINK-005 MUST NOT\nexpect:\n  action: decline\n"
        try text.write(toFile: directory + "/large.case", atomically: true, encoding: .utf8)
        return try #require(try CaseLoader.load(from: directory, catalog: nil).cases.first)
    }

    @Test("A link that takes longer to build than the timeout is an error naming the build, and nothing is sent")
    func overBudget() throws {
        let handler = SubprocessTarget(
            executable: BuiltProducts.path("appflip-reference"), arguments: ["--client-id", "google-client"], mode: .oneShot)
        // A millionth of a second: no megabyte link is built that fast.
        let run = try SuiteRun.run(TargetUnderTest(adapters: [.linkHandler: handler]), cases: [try largeLinkCase()], timeout: 0.000001, jobs: 1)
        let result = try #require(run.results.first)
        #expect(result.verdict == .error)
        #expect(result.message?.contains("building the link took") == true, "\(result.message ?? "")")
        #expect(result.evidence.answer.isEmpty, "\(result.evidence.answer)")
    }

    @Test("Within the timeout the same link is sent and answered")
    func withinBudget() throws {
        let handler = SubprocessTarget(
            executable: BuiltProducts.path("appflip-reference"), arguments: ["--client-id", "google-client"], mode: .oneShot)
        let run = try SuiteRun.run(TargetUnderTest(adapters: [.linkHandler: handler]), cases: [try largeLinkCase()], timeout: 10, jobs: 1)
        let result = try #require(run.results.first)
        #expect(result.message?.contains("building the link") != true, "\(result.message ?? "")")
        #expect(result.verdict != .error, "\(result.message ?? "")")
    }
}
