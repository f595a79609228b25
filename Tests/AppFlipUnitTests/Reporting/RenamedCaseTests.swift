import AppFlipEvidence
import AppFlipModel
import AppFlipReporting
import AppFlipSyntax
import AppFlipTestSupport
import Foundation
import Testing

/// A case renamed with `formerly:` stays the same case for what names it by its old ID: a baseline entry, `diff`.
/// (`--rerun-failed` is held in WorkflowTests.)
@Suite("Renamed cases")
struct RenamedCaseTests {
    private func renamed(_ result: CaseResult) -> CaseResult {
        var result = result
        let old = result.conformanceCase.id
        result.conformanceCase.id = old + "-renamed"
        result.conformanceCase.formerly = [old]
        return result
    }

    @Test("A baseline entry naming the old ID accepts the renamed case's failure, and is exercised by it")
    func baseline() throws {
        let failing = try #require(Fixtures.mixedRun().results.first { $0.verdict == .fail })
        let entry = Baseline.Entry(
            subject: .conformanceCase(failing.conformanceCase.id), reason: "accepted for now", expires: "2099-12-31",
            location: SourceLocation(file: "b", line: 1, column: 1))
        let baseline = Baseline(entries: [entry], path: "b")
        #expect(baseline.accepting(renamed(failing), today: "2026-11-26") == [entry])
        let judgement = baseline.judge([renamed(failing)], today: "2026-11-26")
        #expect(judgement.problems.isEmpty && judgement.unexercised.isEmpty, "\(judgement.problems) \(judgement.unexercised)")
    }

    @Test("diff pairs a renamed case with its old ID: fixed or regressed, never one removed and one added")
    func diff() throws {
        let run = Fixtures.mixedRun()
        let old = ResultsDocument(run: run, profiles: ["app-link"], reproducible: true)
        var results = run.results
        let index = try #require(results.firstIndex { $0.verdict == .fail })
        results[index] = renamed(results[index])
        results[index].checks = results[index].checks.map { check in
            var check = check
            check.verdict = .pass
            return check
        }
        results[index].verdict = .pass
        let new = ResultsDocument(
            run: RunResult(results: results, catalog: run.catalog, provenance: run.provenance), profiles: ["app-link"],
            reproducible: true)
        let changes = ResultsDiff(old: old, new: new)
        #expect(changes.added.isEmpty && changes.removed.isEmpty, "added \(changes.added.map(\.id)), removed \(changes.removed.map(\.id))")
        #expect(changes.fixed.map(\.id) == [results[index].conformanceCase.id])
    }
}
