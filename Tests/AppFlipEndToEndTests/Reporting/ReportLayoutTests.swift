import AppFlipBase
import AppFlipModel
import AppFlipReporting
import AppFlipRunner
import AppFlipTestSupport
import Foundation
import Testing

/// report.md read the way a reviewer triages: one bug is one finding however many cases it breaks, the report
/// fits a few screens, any run stays under the 1 MiB a CI job summary takes, and the summary is short.
@Suite("Report layout", .serialized)
struct ReportLayoutTests {
    @Test("One systematic bug (the state never returned, 60+ failing cases) is one root cause, first, and the unfolded report is at most 120 lines")
    func oneBugFitsThreeScreens() throws {
        var run = try SuiteRun.run(
            SubprocessTarget(
                executable: BuiltProducts.path("broken-handler"), arguments: ["--defect", "drops-state"],
                mode: .persistent))
        #expect(run.count(.fail) >= 60, "the defect should break many cases: \(run.count(.fail))")
        let arguments = [
            "--profile", "app-link", "--link", "https://app.example/flip", "--client-id", "google-client", "--seed", "7",
            "--", "./broken-handler", "--defect", "drops-state",
        ]
        run.provenance.runArguments = arguments
        run.provenance.command = CommandLineText.quoted(arguments, subcommand: "run")
        let markdown = MarkdownReport(run: run, profiles: ["app-link"]).render()
        let lines = RenderedLines.count(markdown)
        #expect(lines <= 120, "\(lines) rendered lines: more than 120")
        // The root cause comes before anything else about the failures, and names every requirement it breaks.
        let causes = try #require(markdown.range(of: "## Root causes"))
        #expect(causes.lowerBound < (markdown.range(of: "## Failed requirements")?.lowerBound ?? markdown.endIndex))
        #expect(markdown.contains("1. ❌ **no state parameter** — \(run.count(.fail)) cases under "), "\(markdown.prefix(2000))")
        #expect(!markdown.contains("2. ❌ **"), "more than one root cause")
        for id in ["AF-LINK-010", "AF-LINK-006", "AF-LINK-014", "AF-LINK-002"] {
            #expect(markdown[causes.upperBound...].prefix(2000).contains(id), "\(id) is not under the root cause")
        }
        // Every failing case is still named, in a folded list under its finding.
        for result in run.results where result.verdict == .fail {
            #expect(markdown.contains("| `\(result.conformanceCase.id)` |"), "\(result.conformanceCase.id) is not listed")
        }
        #expect(markdown.contains("--filter app-link/baseline/"), "a one-case command is shown")
    }

    @Test("A handler that puts its result in the fragment is one root cause that says so, not 'no state parameter' under eight requirements")
    func resultInFragment() throws {
        let run = try SuiteRun.run(
            SubprocessTarget(
                executable: BuiltProducts.path("broken-handler"), arguments: ["--defect", "result-in-fragment"],
                mode: .persistent))
        let failing = run.results.filter { $0.verdict == .fail }
        #expect(failing.count >= 40, "\(failing.count)")
        // A code in the fragment is not a token in the URL: AF-LINK-020 is not blamed for it.
        let blamed = Set(failing.flatMap(\.findings).filter { $0.verdict == .fail }.map(\.requirement.id))
        #expect(!blamed.contains("AF-LINK-020"), "\(blamed.sorted())")
        let markdown = MarkdownReport(run: run, profiles: ["app-link"]).render()
        let causes = markdown.components(separatedBy: "## Root causes").dropFirst().first?.components(separatedBy: "\n## ").first ?? ""
        #expect(causes.contains("1. ❌ **the result is in the URL's fragment, not its query (the query has no parameters)** — "), "\(causes)")
        #expect(causes.contains("— \(failing.count) cases under"), "\(causes)")
        #expect(!causes.contains("2. ❌"), "\(causes)")
        #expect(RenderedLines.count(markdown) <= 120, "\(RenderedLines.count(markdown)) rendered lines")
    }

    @Test("A redirect_uri matched by prefix is one finding over the URLs it opened, not one section per URL")
    func prefixMatchedRedirects() throws {
        let run = try SuiteRun.run(
            SubprocessTarget(
                executable: BuiltProducts.path("broken-handler"), arguments: ["--defect", "prefix-bundle"],
                mode: .persistent))
        let failing = run.results.filter { $0.verdict == .fail }
        #expect(failing.count >= 8, "\(failing.count)")
        let groups = FindingGroup.groups(of: run.results, verdicts: [.fail])
        let largest = try #require(groups.first)
        // Every URL it opened, on either of Google's hosts, one of them with a space in its path.
        #expect(largest.members.count == failing.count, "\(groups.map(\.members.count))")
        #expect(
            FindingGroup.maskingURLPaths("opened https://h.example/a/b?code=‹redacted hmac:1›&state=x, then x")
                == "opened https://… then x")
    }

    @Test("The same failure with other values is one group; another requirement or another failure is another")
    func grouping() {
        #expect(FindingGroup.shape(of: "state 'a%2520b' instead of 'a%20b'") == FindingGroup.shape(of: "state 'x' instead of 'yy'"))
        #expect(
            FindingGroup.shape(of: "opened https://h/?code=‹redacted 32 chars sha256:10976e3d›")
                == FindingGroup.shape(of: "opened https://h/?code=‹redacted 8 chars sha256:aaaaaaaa›"))
        #expect(FindingGroup.shape(of: "timed out after 10 s") == FindingGroup.shape(of: "timed out after 5 s"))
        // An apostrophe is not a quote: these differ after it.
        #expect(FindingGroup.shape(of: "the app's answer was open") != FindingGroup.shape(of: "the app's answer was decline"))
        #expect(FindingGroup.shape(of: "no state parameter") != FindingGroup.shape(of: "no code parameter"))

        let run = Fixtures.mixedRun()
        var results = run.results
        if var copy = results.first(where: { $0.verdict == .fail }) {
            copy.conformanceCase.id += "-again"
            results.append(copy)
        }
        let groups = FindingGroup.groups(of: results, verdicts: [.fail, .error])
        #expect(groups.map(\.members.count) == [2, 1], "\(groups.map(\.members.count))")
        #expect(groups.first?.verdict == .fail && groups.last?.kind == .targetError)
    }

    @Test("A run too large for 1 MiB is shortened, says what was cut, and keeps the verdict and every finding's heading")
    func sizeLimit() {
        let base = Fixtures.mixedRun()
        guard let failing = base.results.first(where: { $0.verdict == .fail }) else { return }
        var results: [CaseResult] = []
        for index in 0..<3000 {
            var result = failing
            result.conformanceCase.id = "app-link/huge/case-\(index)"
            // A distinct failure each (no grouping), with the largest evidence a case keeps.
            result.checks = result.checks.map { check in
                var check = check
                check.expected = "expectation number \(String(repeating: "x", count: index % 7)) \(index)"
                return check
            }
            result.evidence.stderr = String(repeating: "e", count: 4000)
            results.append(result)
        }
        let run = RunResult(results: results, catalog: base.catalog, provenance: base.provenance)
        let markdown = MarkdownReport(run: run, profiles: ["app-link"]).render()
        #expect(markdown.utf8.count <= MarkdownReport.sizeLimit, "\(markdown.utf8.count) bytes")
        #expect(markdown.contains("**Verdict: ❌ NOT CONFORMANT**"))
        #expect(markdown.contains("**Shortened to stay under 1024 KiB:**"))
        // An ordinary run is not shortened.
        #expect(!MarkdownReport(run: base, profiles: ["app-link"]).render().contains("Shortened"))
    }

    @Test("The job summary is short, carries the verdict and the failed requirements, and points at the reports")
    func summary() {
        let summary = MarkdownReport(run: Fixtures.mixedRun(), profiles: ["app-link"]).renderSummary(reportsDirectory: "Reports")
        #expect(summary.hasPrefix("## AppFlip Conformance\n\n**Verdict: ❌ NOT CONFORMANT**"))
        #expect(summary.contains("| **AF-LINK-005** — Unlisted redirect\\_uri never opened | MUST NOT | 1 |"))
        #expect(summary.contains("1 distinct warning (SHOULD) in 1 case."))
        #expect(summary.contains("`Reports/report.md`"))
        #expect(!summary.contains("<details>") && !summary.contains("](#f"))
        #expect(summary.split(separator: "\n").count < 40)
    }

    @Test("A one-case command drops every case-selecting and report option and keeps the target's arguments")
    func oneCaseCommand() {
        let arguments = [
            "--profile", "app-link", "--filter", "app-link/x", "--filter=other", "--reports", "out", "--summary", "s.md",
            "--seed", "7", "--", "./handler", "--filter", "kept",
        ]
        #expect(
            CommandLineText.narrowed(arguments, toCase: "app-link/y/z") == [
                "--profile", "app-link", "--seed", "7", "--filter", "app-link/y/z", "--reports", "Reports/one-case",
                "--", "./handler", "--filter", "kept",
            ])
        #expect(
            Fixtures.provenance.command(onlyCase: "a b")
                == "appflip-conformance run --target reference --seed 42 --filter 'a b' --reports Reports/one-case")
        // A certification run refuses --filter: its one-case command is an ordinary run, which always runs.
        #expect(
            CommandLineText.narrowed(["--certification", "--seed", "7", "--", "./handler", "--certification"], toCase: "a/b") == [
                "--seed", "7", "--filter", "a/b", "--reports", "Reports/one-case", "--", "./handler", "--certification",
            ])
    }
}
