import AppFlipChecks
import AppFlipLoading
import AppFlipModel
import Testing

/// `hsts: enabled`: any header a browser would take passes, whatever its spelling; one it would ignore warns.
@Suite("HSTS")
struct HSTSTests {
    private func holds(_ values: [String]) throws -> Bool {
        let configuration = RunConfiguration(link: "https://app.example/flip", clientID: "c")
        let judge = Judge(context: Template.Context(configuration: configuration, generated: GeneratedValues(seed: 1, caseID: "x")))
        let text =
            "id: a/b\ntitle: t\nprofile: authorize\nscenario: consent\nsteps:\n  - request:\n      endpoint: authorize\n"
            + "    checks:\n      - requirement: AF-AUTHZ-026 SHOULD\n        expect:\n          hsts: enabled\n"
        var loader = CaseLoader(catalog: nil)
        let checks = try #require(loader.load(bytes: Array(text.utf8), file: "h.case", group: "g").first?.checks)
        let response = HTTPObservation(status: 200, headers: values.map { ("Strict-Transport-Security", $0) }, body: [])
        return try #require(judge.judge(checks, observation: .http(response)).first).held
    }

    @Test("Other servers' spellings pass: directives in any order and case, a quoted max-age, preload")
    func accepted() throws {
        for value in [
            "max-age=31536000", "max-age=63072000; includeSubDomains; preload", "includeSubDomains;MAX-AGE=\"600\"",
            " max-age = 1 ", "max-age=31536000;",
        ] {
            #expect(try holds([value]), "\(value)")
        }
        #expect(try holds(["max-age=600", "max-age=0"]), "a browser reads only the first header")
    }

    @Test("Missing, max-age=0, no max-age, a non-number, or a repeated directive warns")
    func refused() throws {
        #expect(try !holds([]))
        for value in ["max-age=0", "includeSubDomains", "max-age=1y", "max-age=", "max-age=10; max-age=20", "max-age=-5"] {
            #expect(try !holds([value]), "\(value)")
        }
    }
}
