import AppFlipLoading
import AppFlipModel
import AppFlipRunner
import AppFlipTestSupport
import Foundation
import Testing

/// The https-only probes: the plain-http form of an https endpoint must serve nothing. The endpoint is configured
/// as https://127.0.0.1:PORT, and a plain server on that port plays what the partner serves over http there.
@Suite("Plain-http probes", .serialized)
struct PlainHTTPProbeTests {
    private func probe(_ id: String, reply: RecordingServer.Reply?) throws -> CaseResult {
        let cases = try SuiteRun.load().1.cases
        let probe = try #require(cases.first { $0.id == id })
        var port = 9
        var server: RecordingServer?
        if let reply {
            server = try RecordingServer { _ in reply }
            port = server?.port ?? 9
        }
        defer { server?.stop() }
        let base = "https://127.0.0.1:\(port)"
        let targets = TargetUnderTest(
            endpoints: [.authorize: base + "/oauth/authorize", .token: base + "/oauth/token", .revoke: base + "/oauth/revoke"],
            clientSecret: "never-sent-in-clear")
        let result = try #require(try SuiteRun.run(targets, cases: [probe]).results.first)
        if let server {
            #expect(!server.requests.contains { String(decoding: $0, as: UTF8.self).contains("never-sent-in-clear") })
        }
        return result
    }

    @Test("A sign-in page served over plain http fails AF-AUTHZ-001")
    func signInOverHTTP() throws {
        let result = try probe(
            "authorize/transport/https-only",
            reply: RecordingServer.ok("<form><input name=password type=password></form>", headers: "Content-Type: text/html\r\n"))
        #expect(result.verdict == .fail)
        #expect(result.findings.map(\.requirement.id) == ["AF-AUTHZ-001"])
    }

    @Test("Tokens issued over plain http fail TOK-GEN-001")
    func tokensOverHTTP() throws {
        let result = try probe(
            "token/transport/https-only",
            reply: RecordingServer.ok(
                #"{"access_token":"x","token_type":"Bearer"}"#,
                headers: "Content-Type: application/json\r\n"))
        #expect(result.findings.map(\.requirement.id) == ["TOK-GEN-001"])
    }

    @Test("A redirect to https, an error page, or no listener at all passes")
    func refusals() throws {
        let redirect = RecordingServer.Reply.bytes(
            Array("HTTP/1.1 301 Moved\r\nLocation: https://127.0.0.1/oauth/authorize\r\nContent-Length: 0\r\n\r\n".utf8))
        #expect(try probe("authorize/transport/https-only", reply: redirect).verdict == .pass)
        let page = "The plain HTTP request was sent to HTTPS port"
        let error = RecordingServer.Reply.bytes(Array("HTTP/1.1 400 Bad Request\r\nContent-Length: \(page.utf8.count)\r\n\r\n\(page)".utf8))
        #expect(try probe("token/transport/https-only", reply: error).verdict == .pass)
        #expect(try probe("authorize/transport/https-only", reply: nil).verdict == .pass)
    }

    @Test("A redirect from http to another http URL fails")
    func redirectStaysPlain() throws {
        let redirect = RecordingServer.Reply.bytes(Array("HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1/login\r\nContent-Length: 0\r\n\r\n".utf8))
        #expect(try probe("authorize/transport/https-only", reply: redirect).verdict == .fail)
    }

    @Test("An endpoint configured with http:// is skipped with the reason, never judged")
    func httpEndpointSkipped() throws {
        let cases = try SuiteRun.load().1.cases.filter { $0.httpRequests.contains { $0.transportProbe != nil } }
        #expect(cases.count == 7, "plain http, old TLS and the certificate, for the authorization and token endpoints (and revocation's certificate)")
        let run = try SuiteRun.run(
            TargetUnderTest(endpoints: [
                .authorize: "http://127.0.0.1:9/a", .token: "http://127.0.0.1:9/t",
                .revoke: "http://127.0.0.1:9/r",
            ]), cases: cases)
        #expect(run.results.allSatisfy { $0.verdict == .skip && ($0.message ?? "").contains("no TLS to judge") })
    }

    @Test("A plain-http probe must not carry a secret: auth and user must be none")
    func probesCarryNoSecret() {
        let text =
            "id: a/b\ntitle: t\nprofile: authorize\nscenario: consent\nsteps:\n  - request:\n      endpoint: authorize\n"
            + "      scheme: http\n    checks:\n      - requirement: AF-AUTHZ-001 MUST\n        expect:\n          plain_http: refused\n"
        var loader = CaseLoader(catalog: nil)
        _ = loader.load(bytes: Array(text.utf8), file: "p.case", group: "g")
        #expect(loader.diagnostics.contains { $0.message.contains("sends no secret") })
    }
}
