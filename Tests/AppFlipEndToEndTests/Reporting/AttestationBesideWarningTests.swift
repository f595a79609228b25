import AppFlipModel
import AppFlipReporting
import AppFlipTestSupport
import Foundation
import Testing

/// An attestation's note is read beside the warning of its requirement's observable SHOULD companion: a note that
/// cites a throttle stands next to the throttling probe's finding, where a reader sees whether the two agree.
@Suite("Attestations beside their companion's warning")
struct AttestationBesideWarningTests {
    private func run(attested: Bool) throws -> RunResult {
        let (catalog, suite) = try SuiteRun.load()
        let probe = try #require(suite.cases.first { $0.requirements.contains { $0.id == "TOK-GEN-006-S" } })
        let check = CheckResult(
            requirement: RequirementReference(id: "TOK-GEN-006-S", level: .should), expected: "a sign of throttling within the burst",
            observed: "40 wrong secrets, every one answered 401 at once", verdict: .warn)
        let result = CaseResult(
            conformanceCase: probe, verdict: .warn, checks: [check], evidence: Evidence(link: "", answer: "", stderr: ""), duration: 0)
        var run = RunResult(results: [result], catalog: catalog, provenance: Fixtures.provenance)
        if attested {
            run.attestations = [
                Attestation(
                    requirement: "TOK-GEN-006", verdict: .pass, by: "Partner QA", date: "2026-12-01",
                    note: "The token endpoint throttles after 20 failures (nginx limit_req).")
            ]
        }
        return run
    }

    @Test("report.md and report.html show the note under the companion's finding; without the attestation, nothing")
    func beside() throws {
        let note = "The token endpoint throttles after 20 failures (nginx limit_req)."
        let attested = try run(attested: true)
        let markdown = MarkdownReport(run: attested, profiles: ["token"]).render()
        let finding = try #require(markdown.range(of: "TOK-GEN-006-S"))
        let line =
            "- **Attested by hand for TOK-GEN-006** (read beside this finding; a person's word, not the suite's): **pass** by Partner QA on 2026-12-01: "
        #expect(markdown[finding.lowerBound...].contains(line + MarkdownText.inline(note)), "\(markdown)")
        let html = HTMLReport(run: attested, profiles: ["token"]).render()
        #expect(html.contains("<strong>Attested by hand for TOK-GEN-006</strong>") && html.contains(HTMLText.text(note)), "\(html.suffix(3000))")
        let plain = MarkdownReport(run: try run(attested: false), profiles: ["token"]).render()
        #expect(!plain.contains("Attested by hand for"))
    }
}
