import AppFlipModel
import AppFlipReporting
import AppFlipTestSupport
import Testing

/// Two expectations of one requirement that fail in one case are two groups: their headings say which expectation,
/// so report.md and report.html never list the same requirement twice under one title.
@Suite("Finding headings")
struct FindingHeadingTests {
    private static func run() -> RunResult {
        let should = RequirementReference(id: "AF-LINK-019", level: .should)
        var run = Fixtures.mixedRun()
        run.results.append(
            CaseResult(
                conformanceCase: Fixtures.conformanceCase("app-link/other/two", group: "app-link/other", line: 40, requirement: should),
                verdict: .warn,
                checks: [
                    CheckResult(requirement: should, expected: "HTTP status 4xx", observed: "HTTP 200", verdict: .warn),
                    CheckResult(requirement: should, expected: "no JSON member access_token", observed: "access_token = ‹redacted›", verdict: .warn),
                ],
                evidence: Evidence(), duration: 0.1))
        return run
    }

    @Test("Groups of one requirement and verdict carry their expectation; a requirement's only group does not")
    func groups() {
        let warnings = ReportFindings(run: Self.run()).warnings
        let shared = warnings.filter(\.sharesHeading).compactMap(\.headingPart)
        #expect(Set(shared) == ["opened universal-links-only", "HTTP status 4xx", "no JSON member access_token"], "\(shared)")
        #expect(ReportFindings(run: Fixtures.mixedRun()).warnings.allSatisfy { !$0.sharesHeading && $0.headingPart == nil })
    }

    @Test("report.md and report.html name the expectation in each such heading, never one title twice")
    func rendered() {
        let markdown = MarkdownReport(run: Self.run(), profiles: ["app-link"]).render()
        let headings = markdown.split(separator: "\n").filter { $0.hasPrefix("### ") && $0.contains("AF-LINK-019") }
        #expect(headings.count == 3 && Set(headings).count == 3, "\(headings)")
        #expect(headings.contains { $0.contains(": HTTP status 4xx (1 case)") }, "\(headings)")
        let html = HTMLReport(run: Self.run(), profiles: ["app-link"]).render()
        #expect(html.contains(": no JSON member access_token (1 case)</summary>"))
    }
}
