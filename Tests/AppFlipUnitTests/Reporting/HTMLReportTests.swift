import AppFlipDigest
import AppFlipModel
import AppFlipSyntax
import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipReporting

/// report.html as text: self-contained, its own code allowed by hash and nothing else, every target text inert, links
/// only to https sources and its own anchors, and the same findings as report.md. (In a browser:
/// HTMLReportBrowserTests.)
@Suite("HTML report")
struct HTMLReportTests {
    @Test("A level's filter token is its name with a hyphen for the space, one word the page's filter matches")
    func levelTokens() {
        for level in Level.allCases {
            let token = HTMLReport.token(level)
            #expect(token == level.rawValue.split(separator: " ").joined(separator: "-"), "\(level)")
            #expect(!token.contains(" "))
        }
        #expect(Set(Level.allCases.map(HTMLReport.token)).count == Level.allCases.count)
    }

    static let hostile = Fixtures.hostileMarkup

    /// A run whose every target-written text is hostile.
    static func hostileRun() -> RunResult {
        var run = Fixtures.mixedRun()
        run.results = run.results.map { result in
            var result = result
            result.message = (result.message ?? "") + Self.hostile
            result.checks = result.checks.map { check in
                check.notApplicable != nil
                    ? check
                    : CheckResult(
                        requirement: check.requirement, expected: check.expected, observed: check.observed + Self.hostile, verdict: check.verdict)
            }
            result.evidence = Evidence(
                link: "https://app.example/flip?x=" + Self.hostile, answer: Self.hostile, stderr: Self.hostile,
                exchanges: [
                    Evidence.Exchange(
                        "GET /" + Self.hostile, requestHeaders: [Evidence.Header("X-A", Self.hostile)],
                        responseHeaders: [Evidence.Header(Self.hostile, "v")])
                ])
            return result
        }
        run.provenance.target = Self.hostile
        return run
    }

    private func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test("One style and one script, both inline and allowed by their SHA-256 in the page's policy, and nothing fetched")
    func policy() throws {
        let page = HTMLReport(run: Fixtures.mixedRun(), profiles: ["app-link"], reproducible: true).render()
        #expect(count("<script", in: page) == 1 && count("<style", in: page) == 1)
        let script = try #require(page.components(separatedBy: "<script>").dropFirst().first?.components(separatedBy: "</script>").first)
        let style = try #require(page.components(separatedBy: "<style>").dropFirst().first?.components(separatedBy: "</style>").first)
        let hash = { (text: String) in "'sha256-" + Data(SHA256.hash(Array(text.utf8))).base64EncodedString() + "'" }
        let policy = try #require(
            page.components(separatedBy: "http-equiv=\"Content-Security-Policy\" content=\"").dropFirst().first?
                .components(separatedBy: "\"").first)
        let read = HTMLText.unescaped(policy)
        #expect(
            read.contains("default-src 'none'") && read.contains("script-src \(hash(script))") && read.contains("style-src \(hash(style))"), "\(read)"
        )
        #expect(!read.contains("unsafe"))
        // Nothing the page loads: no src, no stylesheet link, no url() in the style.
        #expect(!page.contains(" src=") && !page.contains("<link") && !style.contains("url("))
        // The policy comes before anything it governs.
        #expect(try #require(page.range(of: "Content-Security-Policy")).lowerBound < (try #require(page.range(of: "<style>"))).lowerBound)
    }

    @Test("Everything a target wrote is text: no markup, handler, javascript: link or style of its own reaches the page")
    func hostileTextIsInert() throws {
        let page = HTMLReport(run: Self.hostileRun(), profiles: ["app-link"], reproducible: true).render()
        #expect(count("<script", in: page) == 1 && count("<style", in: page) == 1)
        #expect(count("<details", in: page) == count("</details>", in: page))
        #expect(count("<table", in: page) == count("</table>", in: page))
        // Written as text, the markup is there to read; as markup, nowhere: no tag of it, no attribute it sets.
        #expect(!page.contains("href=\"javascript") && !page.contains("<img") && !page.contains("<a href=\"j"))
        #expect(page.firstMatch(of: try Regex(#"<[a-zA-Z][^>]*\son[a-z]+\s*="#)) == nil)
        #expect(!page.contains("<!--"))
        #expect(page.contains("&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;"))
        // The title is the suite's words.
        #expect(page.contains("<title>AppFlip Conformance: NOT CONFORMANT</title>"))
    }

    @Test("Links go only to the catalog's https sources and the page's own anchors; a source of another scheme is shown unlinked")
    func links() {
        var run = Fixtures.mixedRun()
        run.catalog.sources["AF-iOS"] = SourceDocument(key: "AF-iOS", title: "App Flip for iOS", url: "javascript:alert(1)")
        let page = HTMLReport(run: run, profiles: ["app-link"], reproducible: true).render()
        let hrefs = page.components(separatedBy: "href=\"").dropFirst().compactMap { $0.components(separatedBy: "\"").first }
        #expect(!hrefs.isEmpty)
        for href in hrefs { #expect(href.hasPrefix("https://") || href.hasPrefix("#"), "\(href)") }
        #expect(hrefs.contains("https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2.1"))
        #expect(page.contains("AF-iOS step 5") && !page.contains("javascript:"))
        #expect(HTMLText.href("JavaScript:alert(1)") == nil && HTMLText.href("data:text/html,x") == nil && HTMLText.href("//evil.example") == nil)
        #expect(HTMLText.href("#f1") == "#f1" && HTMLText.href("#x\" onclick=\"y") == nil)
    }

    @Test("Every case's row, written as bytes, reads as the row composed of strings: IDs and messages to escape, known")
    func everyCaseRows() {
        var run = Fixtures.mixedRun()
        // A case ID and a message with characters to escape and upper-case letters, a known failure, a long message.
        run.results[0].conformanceCase.id = "app-link/Demo/<b>&'quoted\"-Ä"
        run.results[0].message = "failed: <script>alert('x')</script> & " + String(repeating: "more ", count: 80)
        run.results[0].knownBy = [
            Baseline.Entry(
                subject: .conformanceCase(run.results[0].conformanceCase.id), reason: "accepted", expires: "2099-12-31",
                location: SourceLocation(file: "b", line: 1, column: 1))
        ]
        run.results[1].message = nil
        for reproducible in [true, false] {
            let page = HTMLReport(run: run, profiles: ["app-link"], reproducible: reproducible).render()
            for result in run.results {
                let conformanceCase = result.conformanceCase
                let requirements = CaseResult.requirements(of: conformanceCase, outlines: result.checkOutlines)
                // The row as HTMLReport composed it before it wrote bytes.
                let row =
                    "<tr data-case=\"\(HTMLText.text(conformanceCase.id))\""
                    + HTMLReport.filterAttributes(
                        verdicts: [result.verdict], profiles: [conformanceCase.profile.rawValue],
                        levels: requirements.map(\.level), search: [conformanceCase.id] + requirements.map(\.id)) + ">"
                    + "<td><code>\(HTMLText.text(conformanceCase.id))</code></td><td class=\"tag \(result.verdict.rawValue)\">"
                    + "\(HTMLReport.verdictIcons[result.verdict] ?? "") \(result.verdict.rawValue)\(result.isKnown ? " (known)" : "")</td>"
                    + "<td>\(HTMLText.text(ReportFormatting.requirementList(requirements)))</td>"
                    + "<td>\(HTMLText.text(HTMLText.cut(result.message ?? "", limit: 300)))</td>"
                    + "<td class=\"n\">\(ReportFormatting.seconds(reproducible ? 0 : result.duration))</td></tr>\n"
                #expect(page.contains(row), "\(conformanceCase.id)")
            }
        }
    }

    @Test("The same findings as report.md: each failure group, root cause and every case, with the verdict report.md gives")
    func sameFindings() {
        let run = Fixtures.mixedRun()
        let page = HTMLReport(run: run, profiles: ["app-link"], reproducible: true).render()
        let findings = ReportFindings(run: run)
        #expect(count("<details id=\"f", in: page) == findings.failures.count && count("<details id=\"w", in: page) == findings.warnings.count)
        for result in run.results {
            #expect(
                page.contains("<tr data-case=\"\(result.conformanceCase.id)\" data-f data-verdict=\"\(result.verdict.rawValue)\""),
                "\(result.conformanceCase.id)")
        }
        #expect(page.contains("<p>Exit code: \(run.exitStatus.rawValue). "))
        let markdown = MarkdownReport(run: run, profiles: ["app-link"], reproducible: true).render()
        #expect(markdown.contains("NOT CONFORMANT") && page.contains("Verdict: NOT CONFORMANT"))
        // Without scripts everything shows: nothing is hidden but the filter form and the copy buttons.
        let hiddenElements = page.components(separatedBy: " hidden").count - 1
        #expect(hiddenElements == 1 + count("class=\"copy\"", in: page), "\(hiddenElements)")
    }

    @Test("Text is escaped whole: the five markup characters as references, controls dropped (C1 included), tab and newline kept")
    func escaping() {
        #expect(HTMLText.text("AF-LINK-010 MUST, app-link/state/é") == "AF-LINK-010 MUST, app-link/state/é")
        #expect(HTMLText.text("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        #expect(HTMLText.text("a\u{85}b\u{1}c\td\ne\u{7F}") == "abc\td\ne")
        #expect(HTMLText.text("\u{A0}non-breaking") == "\u{A0}non-breaking")
    }

    @Test("No inline event handler anywhere: the page's own behaviour is attached by its script")
    func noInlineHandlers() throws {
        let page = HTMLReport(run: Fixtures.mixedRun(), profiles: ["app-link"], reproducible: true).render()
        let tags = try Regex(#"<[a-zA-Z][^>]*\son[a-z]+\s*="#)
        #expect(page.firstMatch(of: tags) == nil)
    }
}
