import AppFlipChecks
import AppFlipLoading
import AppFlipModel
import Testing

/// `json: {scope: scopes VALUE}`: scope lists compare as sets, so another server's order passes.
@Suite("JSON scope lists")
struct JSONScopesTests {
    private func holds(_ body: String, granted: String = "devices profile") throws -> Bool {
        var configuration = RunConfiguration(link: "https://app.example/flip", clientID: "c")
        configuration.narrowedScope = NarrowedScope(request: granted + " admin", granted: granted)
        let judge = Judge(context: Template.Context(configuration: configuration, generated: GeneratedValues(seed: 1, caseID: "x")))
        let text =
            "id: a/b\ntitle: t\nprofile: token\nscenario: consent\nsteps:\n  - request:\n      endpoint: token\n"
            + "    checks:\n      - requirement: TOK-RESP-005 MUST\n        expect:\n          json:\n"
            + "            scope: scopes ${narrowed_scope_granted}\n"
        var loader = CaseLoader(catalog: nil)
        let checks = try #require(loader.load(bytes: Array(text.utf8), file: "s.case", group: "g").first?.checks)
        let response = HTTPObservation(status: 200, headers: [("Content-Type", "application/json")], body: Array(body.utf8))
        return try #require(judge.judge(checks, observation: .http(response)).first).held
    }

    @Test("The granted scopes in any order pass")
    func anyOrder() throws {
        #expect(try holds(#"{"scope":"devices profile"}"#))
        #expect(try holds(#"{"scope":"profile devices"}"#))
    }

    @Test("A missing scope, the whole request, or a different set fails")
    func mismatches() throws {
        #expect(try !holds(#"{"access_token":"x"}"#))
        #expect(try !holds(#"{"scope":"devices profile admin"}"#))
        #expect(try !holds(#"{"scope":"devices"}"#))
        #expect(try !holds(#"{"scope":["devices","profile"]}"#))
    }
}
