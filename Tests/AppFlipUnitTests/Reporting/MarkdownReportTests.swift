import AppFlipModel
import AppFlipReporting
import AppFlipTestSupport
import Testing

@Suite("Markdown report")
struct MarkdownReportTests {
    let markdown = MarkdownReport(run: Fixtures.mixedRun(), profiles: ["app-link"]).render()

    @Test("The report matches the golden file (fixed clock and ordering)")
    func golden() throws {
        try Golden.check(markdown, against: "report.md")
    }

    @Test("The verdict comes first")
    func verdictFirst() {
        let lines = markdown.split(separator: "\n")
        #expect(lines.count > 2)
        #expect(lines[1].hasPrefix("**Verdict: ❌ NOT CONFORMANT**"))
    }

    @Test("The matrix lists every requirement with linked sources, and says why an uncovered one is not covered")
    func matrix() {
        #expect(
            markdown.contains(
                "| AF-LINK-005 | MUST NOT | Unlisted redirect\\_uri never opened | "
                    + "[RFC6749 §4.1.2.1](https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2.1) | 4 | ❌ fail |"), "\(markdown)")
        #expect(
            markdown.contains("| AF-LINK-021 | MUST | Consent names Google | AF-Ovw Design | 0 | not covered: not observable |")
                || markdown.contains("| AF-LINK-021 | MUST | Consent names Google | [AF-Ovw Design]("))
        #expect(markdown.contains("- **AF-LINK-021** (MUST) Consent names Google: not observable: A user-interface requirement."))
        #expect(markdown.contains("This run judged 2 of the 3 requirements in the catalog; 0 are planned"))
        #expect(markdown.contains("- **AF-LINK-005**: Allowlist first."))
        // The matrix and decisions are folded into the appendix, after everything a reviewer reads first.
        let appendix = markdown.range(of: "## Appendix")?.lowerBound
        let matrix = markdown.range(of: "<details><summary>A. Requirement matrix")?.lowerBound
        #expect(appendix != nil && matrix != nil && matrix! > appendix!)
    }

    @Test("Failures show expected versus observed, sources, a one-case command, and the evidence folded")
    func findings() {
        #expect(markdown.contains("### <a id=\"f1\"></a>1. ❌ AF-LINK-005 MUST NOT — Unlisted redirect\\_uri never opened (1 case)"), "\(markdown)")
        #expect(markdown.contains("- **Expected:** declines (opens nothing)"))
        #expect(markdown.contains("Case file: `Conformance/cases/app-link/demo/demo.case:10` (scenario `consent`)"))
        #expect(markdown.contains("Target error (1 case)"))
        #expect(markdown.contains("- **What happened:** timed out after 10 s"))
        #expect(markdown.contains("| **AF-LINK-005** — Unlisted redirect\\_uri never opened | MUST NOT | 1 | declines (opens nothing) |"))
    }

    @Test("Target text cannot close a code fence, forge a table row or smuggle control characters")
    func hostileText() {
        #expect(markdown.contains("````text\nlink:"))
        #expect(!markdown.unicodeScalars.contains { $0.value == 1 || $0.value == 0x202E })
    }

    @Test("Provenance names the version, case digest, seed, target and command")
    func provenance() {
        #expect(markdown.contains("| Suite version | 0.1.0 |"))
        #expect(markdown.contains("| Seed | 42 |"))
        #expect(markdown.contains("sha256 `\(String(repeating: "ab", count: 32))`"))
        #expect(markdown.contains("appflip-conformance run --target reference"))
    }

    @Test("An interrupted run says INCOMPLETE first, a profile partly run says how much ran, one never reached says so")
    func interrupted() {
        var run = Fixtures.mixedRun()
        run.incomplete = true
        run.selected = ["app-link": 9, "authorize": 4]
        let text = MarkdownReport(run: run, profiles: ["app-link", "authorize"]).render()
        #expect(text.contains("**Verdict: ⏸️ INCOMPLETE** — the run was interrupted: 5 cases ran of 13 selected"), "\(text.prefix(500))")
        #expect(text.contains("**PARTLY**: partly: 5 of 9 cases run before the run was interrupted"))
        #expect(text.contains("**NOT REACHED**: not reached: the run was interrupted"))
        #expect(!text.contains("no case of this profile was selected") && !text.contains("NOT CONFORMANT"))
    }
}
