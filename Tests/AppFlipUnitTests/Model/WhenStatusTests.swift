import AppFlipChecks
import AppFlipLoading
import AppFlipModel
import AppFlipSyntax
import AppFlipTestSupport
import Foundation
import Testing

/// `when_status:` judges what a success carries only on a success: a refused code exchange fails the requirement that
/// wanted it accepted, never the token response's format, and the loader keeps every such check from being vacuous.
@Suite("Checks judged only on some statuses")
struct WhenStatusTests {
    /// A code exchange step as the suite's cases write it: the status under TOK-CODE-001, the body's shape under
    /// TOK-RESP-001, the headers under TOK-GEN-007 and the token type under TOK-RESP-002 (a `one_of`), only on a success.
    static let exchange = step.replacingOccurrences(
        of: "CHECKS",
        with: """
                  - requirement: TOK-CODE-001 MUST
                    expect:
                      status: 200
                  - requirement: TOK-RESP-001 MUST
                    when_status: 2xx
                    expect:
                      json:
                        access_token: present
                  - requirement: TOK-GEN-007 MUST
                    when_status: [200, 201]
                    expect:
                      headers:
                        Cache-Control: contains no-store
                  - requirement: TOK-RESP-002 MUST
                    when_status: 2xx
                    expect:
                      one_of:
                        - json:
                            token_type: is bearer
                        - json:
                            token_type: is Bearer
            """)

    /// A token profile case of one code exchange step, whose checks replace `CHECKS`.
    static let step = """
        id: token/x/exchange
        title: t
        profile: token
        scenario: consent
        steps:
          - request:
              endpoint: token
            checks:
        CHECKS

        """

    private func load(_ text: String) throws(DiagnosticList) -> [ConformanceCase] {
        try CaseText.load(text, catalog: nil)
    }

    private func judge(status: Int, headers: [(String, String)] = [], body: String = "") throws -> [CheckResult] {
        let checks = try #require(try load(Self.exchange).first?.steps.first?.checks)
        let judge = Judge(
            context: Template.Context(
                configuration: RunConfiguration(link: "https://app.example/flip", clientID: "c"),
                generated: GeneratedValues(seed: 1, caseID: "x")))
        return judge.judge(checks, observation: .http(HTTPObservation(status: status, headers: headers, body: Array(body.utf8))))
    }

    @Test("A refused exchange fails only the requirement that wanted it accepted; the success's shape is not judged")
    func refusalBlamesTheStatus() throws {
        let results = try judge(status: 401, headers: [("Content-Type", "application/json")], body: #"{"error":"invalid_client"}"#)
        #expect(Set(results.filter(\.isFinding).map(\.requirement.id)) == ["TOK-CODE-001"])
        let unjudged = results.filter { !$0.isApplicable }
        #expect(Set(unjudged.map(\.requirement.id)) == ["TOK-RESP-001", "TOK-GEN-007", "TOK-RESP-002"])
        #expect(unjudged.count == 3, "one result per check of an `all` group, one per `one_of` group")
        for result in unjudged {
            #expect(result.observed.contains("HTTP 401"), "\(result.observed)")
        }
        let verdict = CaseResult.judged(Fixtures.conformanceCase("x"), checks: results, evidence: Evidence(), duration: 0)
        #expect(verdict.verdict == .fail)
    }

    @Test("A success is judged whole: a malformed one fails, a well-formed one in another allowed form passes")
    func successIsJudged() throws {
        let malformed = try judge(status: 200, headers: [("Content-Type", "application/json")], body: #"{"token":"t"}"#)
        #expect(Set(malformed.filter(\.isFinding).map(\.requirement.id)) == ["TOK-RESP-001", "TOK-GEN-007", "TOK-RESP-002"])
        let other = try judge(
            status: 201, headers: [("Cache-Control", "private, no-store")], body: #"{"access_token":"t","token_type":"Bearer"}"#)
        #expect(Set(other.filter(\.isFinding).map(\.requirement.id)) == ["TOK-CODE-001"], "201 is not the 200 RFC 6749 §5.1 names")
        #expect(other.filter { $0.requirement.id != "TOK-CODE-001" }.allSatisfy { $0.held })
        let good = try judge(status: 200, headers: [("Cache-Control", "no-store")], body: #"{"access_token":"t","token_type":"bearer"}"#)
        #expect(good.allSatisfy { $0.held })
    }

    @Test(
        "The loader refuses a when_status a refusal could slip past, or one that cannot mean anything",
        arguments: [
            (
                "      - requirement: TOK-RESP-001 MUST\n        when_status: 2xx\n        expect:\n          json:\n            access_token: present",
                "add 'status' to this step's checks"
            ),
            (
                "      - requirement: TOK-CODE-001 MUST\n        expect:\n          status: 200\n"
                    + "      - requirement: TOK-RESP-001 MUST\n        when_status: 2xx\n        expect:\n          status: 200",
                "judge the status in a check of its own"
            ),
            (
                "      - requirement: TOK-CODE-001 MUST\n        expect:\n          status: 200\n"
                    + "      - requirement: TOK-RESP-001 MUST\n        when_status: 2yy\n        expect:\n          json:\n            a: present",
                "a status is a code such as 302 or a class such as 4xx"
            ),
        ])
    func refusedConditions(_ checks: String, _ message: String) {
        do {
            let cases = try load(Self.step.replacingOccurrences(of: "CHECKS", with: checks))
            Issue.record("loaded \(cases.count) cases without an error")
        } catch {
            #expect(error.diagnostics.contains { $0.message.contains(message) }, "got: \(error)")
        }
    }

    @Test("A link step has no status to condition on")
    func linkStep() {
        let text = """
            id: app-link/x/bad
            title: t
            profile: app-link
            scenario: consent
            steps:
              - link:
                  base: app-link
                checks:
                  - requirement: AF-LINK-001 MUST
                    when_status: 2xx
                    expect:
                      action: open

            """
        do {
            _ = try load(text)
            Issue.record("loaded without an error")
        } catch {
            #expect(error.diagnostics.contains { $0.message.contains("'when_status' judges an HTTP response's status") }, "got: \(error)")
        }
    }
}
