import AppFlipDigest
import AppFlipRedaction
import AppFlipSyntax

/// `validate-url` as a run: each authorization request URL is one case of the native-client profile, judged by
/// `AuthorizationRequestAudit` alone, so the same verdicts, exit codes and report writers apply.
package enum URLValidation {
    /// One URL and where it came from (a command-line argument or a line of standard input).
    package struct Input: Sendable {
        package var url: String
        package var location: SourceLocation
        /// Set when the URL was longer than this many bytes: `url` holds its start, and it is not judged.
        package var tooLong: Int?

        package init(url: String, location: SourceLocation) {
            self.url = url
            self.location = location
        }

        /// A URL from `file` (`<argument>`, `<stdin>`) at 1-based `line`.
        package init(url: String, file: String, line: Int) {
            self.init(url: url, location: SourceLocation(file: file, line: line, column: 1))
        }
    }

    /// The results of auditing every input, in order, with provenance for the report.
    package static func run(
        _ inputs: [Input], audit: AuthorizationRequestAudit, catalog: Catalog, suiteVersion: String,
        startedAt: String, command: String
    ) -> RunResult {
        let results = inputs.enumerated().map { index, input -> CaseResult in
            let conformanceCase = ConformanceCase(
                id: "validate-url/\(index + 1)", title: "Authorization request URL \(index + 1)",
                profile: .nativeClient, scenario: .consent, steps: [], location: input.location,
                group: "validate-url")
            // Whatever the URL carries that is secret (a userinfo password, a client assertion, a code) is hidden in
            // every text of the result, the audit's observations included.
            let redactor = Redactor(secrets: Redaction.secrets(in: input.url))
            let evidence = Evidence(link: redactor.excerpt(Redaction.redact(url: input.url), limit: 4096))
            if let limit = input.tooLong {
                // No authorization request a browser opens is this long; judging its start would misjudge it.
                return redactor.redact(
                    CaseResult(
                        conformanceCase: conformanceCase, verdict: .error, checks: [],
                        message: "not judged: the URL is longer than \(limit) bytes", evidence: evidence, duration: 0))
            }
            return redactor.redact(CaseResult.judged(conformanceCase, checks: audit.audit(input.url), evidence: evidence, duration: 0))
        }
        // What was judged, fingerprinted like case files: the URLs (their secrets included, never shown) in order.
        let digest = SHA256.hexDigest(inputs.map(\.url).joined(separator: "\n").utf8)
        let provenance = Provenance(
            suiteVersion: suiteVersion, caseDigest: digest, caseFileCount: 0, seed: 0,
            target: "\(inputs.count) authorization request URL\(inputs.count == 1 ? "" : "s") (static check)",
            mode: "validate-url", jobs: 1, filter: nil, startedAt: startedAt, duration: 0, command: command)
        return RunResult(results: results, catalog: catalog, provenance: provenance)
    }
}
