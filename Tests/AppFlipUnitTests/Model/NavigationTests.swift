import AppFlipBase
import AppFlipChecks
import AppFlipLoading
import AppFlipModel
import Testing

/// `navigation: not-to-client`: a redirect to the server's own pages is allowed; any navigation to the
/// redirect_uri that was sent, or to its origin, is not.
@Suite("Navigation")
struct NavigationTests {
    private func holds(_ response: HTTPObservation, sentRedirectURI: String, mode: String = "not-to-client") throws -> Bool {
        let configuration = RunConfiguration(link: "https://app.example/flip", clientID: "c")
        let sent = QueryParameter.parse(query: "redirect_uri=" + FormEncoding.encode(sentRedirectURI))
        let judge = Judge(context: Template.Context(configuration: configuration, generated: GeneratedValues(seed: 1, caseID: "x"), sent: sent))
        let text =
            "id: a/b\ntitle: t\nprofile: authorize\nscenario: consent\nsteps:\n  - request:\n      endpoint: authorize\n"
            + "    checks:\n      - requirement: AF-AUTHZ-005 MUST NOT\n        expect:\n          navigation: \(mode)\n"
        var loader = CaseLoader(catalog: nil)
        let cases = loader.load(bytes: Array(text.utf8), file: "n.case", group: "g")
        let checks = try #require(cases.first?.checks)
        let result = judge.judge(checks, observation: .http(response))
        return try #require(result.first).held
    }

    private func redirect(_ location: String) -> HTTPObservation {
        HTTPObservation(status: 302, headers: [("Location", location)], body: [])
    }

    @Test("A redirect to the client, its origin, or through a userinfo trick fails; the server's own pages pass")
    func redirects() throws {
        let evil = "https://evil.example/cb"
        #expect(try !holds(redirect("https://evil.example/cb?error=invalid_request"), sentRedirectURI: evil))
        #expect(try !holds(redirect("https://EVIL.example:443/other"), sentRedirectURI: evil))
        #expect(try !holds(redirect("javascript:alert(1)"), sentRedirectURI: "javascript:alert(1)"))
        #expect(try !holds(redirect("https://evil.example/x"), sentRedirectURI: "https://oauth-redirect.googleusercontent.com@evil.example/r/p"))
        #expect(try holds(redirect("https://partner.example/login?return_to=%2Fauthorize"), sentRedirectURI: evil))
        #expect(try holds(redirect("/oauth/error"), sentRedirectURI: evil))
        #expect(try !holds(redirect("https://partner.example/login"), sentRedirectURI: evil, mode: "none"))
    }

    @Test("A meta refresh or a navigating script to the client fails; one to the server's own page passes")
    func pages() throws {
        let evil = "https://evil.example/cb"
        let refresh = HTTPObservation(
            status: 200, headers: [], body: Array(#"<meta http-equiv="refresh" content="0;url=https://evil.example/cb">"#.utf8))
        #expect(try !holds(refresh, sentRedirectURI: evil))
        let script = HTTPObservation(status: 200, headers: [], body: Array(#"<script>location.href = "https://evil.example/cb?e=1"</script>"#.utf8))
        #expect(try !holds(script, sentRedirectURI: evil))
        let own = HTTPObservation(status: 200, headers: [], body: Array(#"<script>location.href = "/login"</script><p>evil</p>"#.utf8))
        #expect(try holds(own, sentRedirectURI: evil))
        let shouting = HTTPObservation(
            status: 200, headers: [], body: Array(#"<META HTTP-EQUIV=Refresh CONTENT="0;URL=https://EVIL.example/cb">"#.utf8))
        #expect(try !holds(shouting, sentRedirectURI: evil))
        let commented = HTTPObservation(
            status: 200, headers: [], body: Array(#"<!-- <meta http-equiv="refresh" content="0;url=https://evil.example/cb"> -->"#.utf8))
        #expect(try holds(commented, sentRedirectURI: evil, mode: "none"), "a refresh inside a comment does nothing")
    }
}
