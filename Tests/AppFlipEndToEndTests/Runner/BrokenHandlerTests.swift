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
        var status: AppFlipModel.ExitStatus
        /// A requirement that must appear in a failing (or, for SHOULD, warning) check.
        var requirement: String
        /// Requirements the defect does not break: they must never be shown failed.
        var notBlamed: [String] = []
        var testDescription: String { name }
    }

    static let defects: [Defect] = [
        Defect(name: "lookalike-host", status: .nonConformant, requirement: "AF-LINK-005"),
        Defect(name: "prefix-bundle", status: .nonConformant, requirement: "AF-LINK-005"),
        Defect(name: "any-redirect", status: .nonConformant, requirement: "AF-LINK-005"),
        Defect(name: "no-client-check", status: .nonConformant, requirement: "AF-LINK-003"),
        // Declining a wrong client_id breaks "answer invalid_request" (006/018), not the client check or the
        // encoding and vocabulary of a result that was never opened.
        Defect(
            name: "silent-bad-client", status: .nonConformant, requirement: "AF-LINK-018",
            notBlamed: ["AF-LINK-003", "AF-LINK-011", "AF-LINK-013"]),
        Defect(name: "raw-state", status: .nonConformant, requirement: "AF-LINK-010"),
        // A stray line after each answer is a protocol fault; it must not turn the violations it follows into errors.
        Defect(name: "raw-state-chatty", status: .nonConformant, requirement: "AF-LINK-010"),
        Defect(name: "reencodes-state", status: .nonConformant, requirement: "AF-LINK-010"),
        Defect(name: "user-not-authorized", status: .nonConformant, requirement: "AF-LINK-013"),
        Defect(name: "deny-as-cancelled", status: .nonConformant, requirement: "AF-LINK-014"),
        Defect(name: "first-of-repeated", status: .nonConformant, requirement: "AF-LINK-007"),
        Defect(name: "empty-code", status: .nonConformant, requirement: "AF-LINK-012"),
        // The same code on every consent: each answer looks fine alone; across the run no code is single-use.
        Defect(name: "fixed-code", status: .nonConformant, requirement: "AF-LINK-012"),
        Defect(name: "short-code", status: .nonConformant, requirement: "AF-LINK-012"),
        Defect(name: "trims-client-id", status: .nonConformant, requirement: "AF-LINK-003"),
        Defect(name: "case-insensitive-client-id", status: .nonConformant, requirement: "AF-LINK-003"),
        // A token in the result URL, even in its fragment, where only a code belongs.
        Defect(name: "token-in-fragment", status: .nonConformant, requirement: "AF-LINK-020"),
        Defect(name: "trims-state", status: .nonConformant, requirement: "AF-LINK-010"),
        Defect(name: "encoded-links-only", status: .nonConformant, requirement: "AF-LINK-002"),
        Defect(name: "no-universal-links", status: .conformant, requirement: "AF-LINK-019"),
        // A crash on malformed input is what AF-LINK-023 forbids: judged, not an error.
        Defect(
            name: "crash-long-state", status: .nonConformant, requirement: "AF-LINK-023",
            notBlamed: ["AF-LINK-002", "AF-LINK-010", "AF-LINK-011", "AF-LINK-018"]),
        Defect(name: "garbage", status: .inconclusive, requirement: "AF-LINK-002"),
    ]

    @Test("The run's exit status and findings name the defect", arguments: defects)
    func caught(_ defect: Defect) throws {
        let target = SubprocessTarget(
            executable: BuiltProducts.path("broken-handler"), arguments: ["--defect", defect.name],
            mode: .persistent)
        let run = try SuiteRun.run(target, timeout: 5)
        #expect(run.exitStatus == defect.status)
        switch defect.status {
        case .inconclusive:
            let errored = run.results.filter { $0.verdict == .error }
            #expect(!errored.isEmpty)
            #expect(errored.contains { $0.conformanceCase.requirements.contains { $0.id == defect.requirement } })
            #expect(run.count(.fail) == 0, "a target error must not be reported as a requirement failure")
        case .conformant:
            let warned = run.results.flatMap(\.findings).filter { $0.verdict == .warn }
            #expect(warned.contains { $0.requirement.id == defect.requirement })
        default:
            let failed = run.results.flatMap(\.findings).filter { $0.verdict == .fail }
            #expect(
                failed.contains { $0.requirement.id == defect.requirement },
                "failed requirements: \(Set(failed.map(\.requirement.id)).sorted())")
        }
        let blamed = Set(run.results.flatMap(\.findings).filter { $0.verdict == .fail }.map(\.requirement.id))
        for id in defect.notBlamed {
            #expect(!blamed.contains(id), "\(id) is shown failed, but the defect does not break it")
            #expect(RequirementOutcome.verdict(of: id, in: run.results) != .fail, "the matrix shows \(id) failed")
        }
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
