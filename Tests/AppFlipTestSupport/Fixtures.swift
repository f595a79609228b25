import AppFlipModel
import AppFlipSyntax
import Foundation

/// Hand-built cases and results for report-writer tests, with fixed times and ordering.
package enum Fixtures {
    package static let catalog = Catalog(
        requirements: [
            Requirement(
                id: "AF-LINK-005", level: .mustNot, profile: "app-link", title: "Unlisted redirect_uri never opened",
                statement: "An unlisted redirect_uri is never opened.", citations: [Citation(sourceKey: "RFC6749", section: "§4.1.2.1")],
                decision: "Allowlist first.",
                quote: SourceQuote(
                    citation: Citation(sourceKey: "RFC6749", section: "§4.1.2.1"),
                    text:
                        "the authorization server SHOULD inform the resource owner of the error and\n   MUST NOT automatically redirect the user-agent to the invalid redirection URI."
                )),
            Requirement(
                id: "AF-LINK-019", level: .should, profile: "app-link", title: "Universal links only",
                statement: "Results open universal-links-only.", citations: [Citation(sourceKey: "AF-iOS", section: "step 5")]),
            Requirement(
                id: "AF-LINK-021", level: .must, profile: "app-link", title: "Consent names Google",
                statement: "The consent screen names Google.", citations: [Citation(sourceKey: "AF-Ovw", section: "Design")],
                notObservable: "A user-interface requirement."),
        ],
        sources: [SourceDocument(key: "RFC6749", title: "OAuth 2.0", url: "https://www.rfc-editor.org/rfc/rfc6749")])

    /// Markup a target could write wherever it writes (answers, messages, standard error, headers), for the tests
    /// that hold report.html inert to it.
    package static let hostileMarkup =
        "<script>document.title='pwned'</script><img src=x onerror=alert(1)></details></td></table>"
        + "<a href=\"javascript:alert(2)\">x</a><style>body{display:none}</style>\" onmouseover=\"alert(3)\" ' <!-- ]]>"

    package static func conformanceCase(
        _ id: String, group: String = "app-link/demo", line: Int = 3,
        requirement: RequirementReference = RequirementReference(id: "AF-LINK-005", level: .mustNot)
    ) -> ConformanceCase {
        ConformanceCase(
            id: id, title: "Title of \(id)", profile: .appLink, scenario: .consent, link: .base,
            checks: [
                CheckGroup(
                    requirement: requirement, expectation: .all([.action(.decline)]),
                    location: SourceLocation(file: "Conformance/cases/\(group)/demo.case", line: line, column: 1))
            ],
            location: SourceLocation(file: "Conformance/cases/\(group)/demo.case", line: line, column: 1), group: group)
    }

    package static let provenance: Provenance = {
        var provenance = Provenance(
            suiteVersion: "0.1.0", caseDigest: String(repeating: "ab", count: 32), caseFileCount: 1, seed: 42,
            target: "subprocess ./handler (one-shot)", mode: "one-shot", jobs: 2, filter: nil, startedAt: "2026-01-02T03:04:05Z",
            duration: 1.5, command: "appflip-conformance run --target reference --seed 42")
        provenance.runArguments = ["--target", "reference", "--seed", "42"]
        return provenance
    }()

    /// One result of each verdict, with awkward text in the evidence.
    package static func mixedRun() -> RunResult {
        let must = RequirementReference(id: "AF-LINK-005", level: .mustNot)
        let should = RequirementReference(id: "AF-LINK-019", level: .should)
        let failing = CheckResult(
            requirement: must, expected: "declines (opens nothing)",
            observed: "opened https://evil.example/?code=‹redacted hmac:01234567›", verdict: .fail)
        let warning = CheckResult(
            requirement: should, expected: "opened universal-links-only", observed: "universal_links_only: false",
            verdict: .warn)
        let hostile = "bad \u{1} bytes ]]> </system-out> <x> | pipe ``` fence \u{202E}rtl"
        return RunResult(
            results: [
                CaseResult(
                    conformanceCase: conformanceCase("app-link/demo/pass", line: 3), verdict: .pass,
                    checks: [CheckResult(requirement: must, expected: "declines", observed: "declined", verdict: .pass)],
                    evidence: Evidence(link: "https://app.example/flip?state=x", answer: "declined (opened nothing)"), duration: 0.0123),
                CaseResult(
                    conformanceCase: conformanceCase("app-link/demo/fail", line: 10), verdict: .fail, checks: [failing],
                    evidence: Evidence(
                        link: "https://app.example/flip?redirect_uri=evil", answer: "opened https://evil.example/",
                        stderr: hostile), duration: 0.2),
                CaseResult(
                    conformanceCase: conformanceCase("app-link/other/warn", group: "app-link/other", line: 4, requirement: should),
                    verdict: .warn, checks: [warning],
                    evidence: Evidence(
                        link: "https://app.example/flip",
                        exchanges: [
                            Evidence.Exchange(
                                "GET http://127.0.0.1:8080/.well-known/apple-app-site-association\n  → HTTP 200, 12 body bytes",
                                sentAt: Date(timeIntervalSince1970: 1_764_102_076.125), milliseconds: 3,
                                requestHeaders: [Evidence.Header("Host", "127.0.0.1:8080")],
                                responseHeaders: [
                                    Evidence.Header("Content-Type", "application/json"),
                                    Evidence.Header("Set-Cookie", "s=‹redacted›; Path=/"),
                                ])
                        ]), duration: 0.0005),
                CaseResult(
                    conformanceCase: conformanceCase("app-link/other/error", group: "app-link/other", line: 20), verdict: .error,
                    checks: [], message: "timed out after 10 s with no answer; the handler's process group was killed",
                    evidence: Evidence(link: "https://app.example/flip", stderr: hostile), duration: 10),
                CaseResult(
                    conformanceCase: conformanceCase("app-link/other/skip", group: "app-link/other", line: 30), verdict: .skip,
                    checks: [], message: "needs a sandbox account", evidence: Evidence(), duration: 0),
            ],
            catalog: catalog, provenance: provenance)
    }
}
