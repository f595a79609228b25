import AppFlipEvidence
import AppFlipModel
import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipReporting

/// What a certification may not have: a case skipped for want of something (configuration, https), or one that judged
/// nothing it tests. A case whose tested requirements' condition the target does not meet (it does not rotate
/// refresh tokens) is not applicable to it, and nothing is missing. `verify` recomputes the same from results.json.
@Suite("Certification tally")
struct CertificationTallyTests {
    private func run(_ last: CaseResult) -> RunResult {
        var provenance = Fixtures.provenance
        provenance.certificationPrograms = ["links"]
        let passing = Fixtures.mixedRun().results[0]
        var catalog = Fixtures.catalog
        catalog.programs = [CertificationProgram(key: "links", title: "Links", profiles: [.appLink], covers: "The link handler.")]
        return RunResult(results: [passing, last], catalog: catalog, provenance: provenance)
    }

    private func skipped(conditionUnmet: Bool) -> CaseResult {
        var result = CaseResult(
            conformanceCase: Fixtures.mixedRun().results[4].conformanceCase, verdict: .skip, checks: [],
            message: "not applicable to this target: step 4: not sent", evidence: Evidence(), duration: 0)
        result.conditionUnmet = conditionUnmet
        return result
    }

    @Test("A skip for a condition the target does not meet is no gap; any other skip, or a case that judged nothing it tests, is")
    func shortfall() throws {
        var warned = Fixtures.mixedRun().results[2]
        warned.notJudged = "not judged: the redirect never reached the app"
        let expectations: [(CaseResult, AppFlipModel.ExitStatus)] = [
            (skipped(conditionUnmet: true), .conformant),
            (skipped(conditionUnmet: false), .certificationIncomplete),
            (warned, .certificationIncomplete),
            (Fixtures.mixedRun().results[2], .conformant),
        ]
        for (last, status) in expectations {
            let run = run(last)
            #expect(run.exitStatus == status, "\(last.conformanceCase.id): \(run.exitStatus)")
            // verify works the same out from the document alone.
            let document = try ResultsDocument.parse(Data(ResultsDocument(run: run, profiles: ["app-link"], reproducible: true).render().utf8))
            #expect(RunResult.exitStatus(document.tally()) == status)
        }
    }
}
