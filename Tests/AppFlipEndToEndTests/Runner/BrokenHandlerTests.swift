import AppFlipDefects
import AppFlipModel
import AppFlipReporting
import AppFlipRunner
import AppFlipTestSupport
import Testing

/// The proof that the suite catches defects: each broken handler has one defect, and the run names it.
@Suite("Broken handlers are caught", .serialized)
struct BrokenHandlerTests {
    struct Defect: Sendable, CustomTestStringConvertible {
        var name: String
        /// The requirements failed: exactly these, no other (so nothing is blamed on a requirement it does not break).
        var failed: Set<String>
        /// The SHOULD requirements it must show as warnings.
        var warned: Set<String>
        var testDescription: String { name }
    }

    /// The shipped catalog's broken link handlers (AppFlipDefects): what `detection` runs too.
    static let defects: [Defect] = LinkHandlerDefects.all.filter { $0.role == .defect }.map { entry in
        Defect(name: entry.name, failed: entry.fails, warned: entry.warns)
    }

    @Test("The run fails exactly the requirements the defect names, warns under its SHOULDs, and nothing errs", arguments: defects)
    func caught(_ defect: Defect) throws {
        let target = SubprocessTarget(
            executable: BuiltProducts.path("broken-handler"), arguments: ["--defect", defect.name],
            mode: .persistent)
        let run = try SuiteRun.run(target, timeout: 5)
        #expect(run.exitStatus == (defect.failed.isEmpty ? .conformant : .nonConformant))
        let findings = run.results.flatMap(\.findings)
        let failed = Set(findings.filter { $0.verdict == .fail }.map(\.requirement.id))
        let warned = Set(findings.filter { $0.verdict == .warn }.map(\.requirement.id))
        // The app-link profile alone: what the defect breaks in the flip profile (AF-LINK-024) is detection's to see.
        let judged = Set(run.results.flatMap(\.conformanceCase.requirements).map(\.id))
        #expect(failed == defect.failed.intersection(judged), "failed requirements: \(failed.sorted())")
        #expect(defect.warned.isSubset(of: warned), "warned: \(warned.sorted())")
        for id in Set(run.results.flatMap(\.conformanceCase.requirements).map(\.id)).subtracting(defect.failed) {
            #expect(RequirementOutcome.verdict(of: id, in: run.results) != .fail, "the matrix shows \(id) failed")
        }
        #expect(run.count(.error) == 0, "\(run.results.filter { $0.verdict == .error }.map { "\($0.conformanceCase.id): \($0.message ?? "")" })")
    }

    @Test("A handler that answers with a line that is not JSON makes the run inconclusive, never a requirement failure")
    func garbage() throws {
        let target = SubprocessTarget(executable: BuiltProducts.path("broken-handler"), arguments: ["--defect", "garbage"], mode: .persistent)
        let run = try SuiteRun.run(target, timeout: 5)
        #expect(run.exitStatus == .inconclusive)
        #expect(run.results.contains { $0.verdict == .error && $0.conformanceCase.requirements.contains { $0.id == "AF-LINK-002" } })
        #expect(run.count(.fail) == 0, "a target error must not be reported as a requirement failure")
    }

    @Test("A handler that makes different legitimate choices passes every case", arguments: ["legitimate-variant", "components-style"])
    func legitimateVariant(_ variant: String) throws {
        let target = SubprocessTarget(
            executable: BuiltProducts.path("broken-handler"), arguments: ["--defect", variant],
            mode: .persistent)
        let run = try SuiteRun.run(target)
        #expect(run.exitStatus == .conformant)
        let notPassing = run.results.filter { $0.verdict != .pass }
        #expect(notPassing.isEmpty, "\(notPassing.map { "\($0.conformanceCase.id): \($0.findings.map(\.observed))" })")
    }

    @Test("Extra output after answers is added to the violations it follows, never hides them")
    func chattyHandlerKeepsFailures() throws {
        let quiet = try SuiteRun.run(
            SubprocessTarget(
                executable: BuiltProducts.path("broken-handler"), arguments: ["--defect", "raw-state"],
                mode: .persistent), jobs: 1)
        let chatty = try SuiteRun.run(
            SubprocessTarget(
                executable: BuiltProducts.path("broken-handler"),
                arguments: ["--defect", "raw-state-chatty"], mode: .persistent), jobs: 1)
        let quietFailures = Set(quiet.results.filter { $0.verdict == .fail }.map(\.conformanceCase.id))
        let chattyFailures = Set(chatty.results.filter { $0.verdict == .fail }.map(\.conformanceCase.id))
        #expect(!quietFailures.isEmpty)
        // Also when a stray line reaches the pipe only after the next request went out: it is charged to the
        // request it followed, and the next request keeps its own answer.
        #expect(quietFailures.isSubset(of: chattyFailures), "lost: \(quietFailures.subtracting(chattyFailures).sorted())")
        #expect(chatty.results.contains { $0.verdict == .fail && $0.message?.contains("protocol fault") == true })
        #expect(chatty.results.contains { $0.verdict == .error }, "cases that passed are charged the fault")
    }

    @Test("A hanging handler makes every case an error, each within its time limit")
    func hang() throws {
        let (_, suite) = try SuiteRun.load()
        let cases = Array(suite.cases.filter { $0.profile == .appLink }.prefix(4))
        let target = SubprocessTarget(executable: BuiltProducts.path("broken-handler"), arguments: ["--defect", "hang"], mode: .oneShot)
        let run = try SuiteRun.run(target, cases: cases, timeout: 0.5, jobs: 4)
        #expect(run.exitStatus == .inconclusive)
        #expect(run.results.allSatisfy { $0.verdict == .error && $0.duration < 3.0 })  // 0.5 s limit plus margin
    }

    @Test("The reference handler passes every case in both modes", arguments: SubprocessTarget.Mode.allCases)
    func reference(_ mode: SubprocessTarget.Mode) throws {
        let target = SubprocessTarget(
            executable: BuiltProducts.path("appflip-reference"), arguments: ["--client-id", "google-client"],
            mode: mode)
        let run = try SuiteRun.run(target)
        #expect(run.exitStatus == .conformant)
        #expect(run.count(.pass) == run.results.count, "\(run.results.filter { $0.verdict != .pass }.map(\.conformanceCase.id))")
    }
}
