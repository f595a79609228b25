import AppFlipBase
import AppFlipHTTP
import AppFlipReferenceServer
import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipModel

/// The reference server's real sign-in and consent pages, walked as a browser without JavaScript would: with the
/// page reader, the cookie jar and link resolution the form-driven sign-in is built from.
@Suite("Sign-in through forms", .serialized)
struct SignInFlowTests {
    /// A minimal browser: one client, one jar, redirects followed only on the server's own origin.
    final class Browser {
        let client: HTTPClient
        let jar = CookieJar()
        let base: String

        init(port: Int) throws {
            base = "http://127.0.0.1:\(port)"
            client = try HTTPClient(origin: HTTPOrigin(scheme: "http", host: "127.0.0.1", port: port), network: .system)
        }

        func send(_ method: String, _ url: String, form: [(String, String)] = []) throws -> (HTTPResponse, String) {
            var headers = HTTPHeaders()
            if let cookies = jar.header(for: url) { headers.append("Cookie", cookies) }
            var body: [UInt8] = []
            if method == "POST" {
                headers.append("Content-Type", "application/x-www-form-urlencoded")
                body = Array(form.map { FormEncoding.encode($0.0) + "=" + FormEncoding.encode($0.1) }.joined(separator: "&").utf8)
            }
            let target = try #require(HTTPOrigin.split(url)).target
            let response = try client.send(HTTPRequest(method: method, target: target, headers: headers, body: body))
            jar.store(response.headers.values("Set-Cookie"), from: url)
            return (response, url)
        }

        /// Submits a form found on a page, with `values` over its defaults and the pressed button.
        func submit(_ form: HTMLForm, on page: String, values: [String: String] = [:], button: HTMLForm.SubmitButton? = nil) throws -> (
            HTTPResponse, String
        ) {
            var fields = form.fields.map { ($0.name, values[$0.name] ?? $0.value) }
            if let button { fields += button.pairs.map { ($0.name, $0.value) } }
            let action = try #require(URLReference.resolve(form.action, against: page))
            return try send(form.method, action, form: fields)
        }
    }

    private func serve() throws -> HTTPServer {
        let reference = ReferenceServer(
            configuration: ReferenceServerConfiguration(clientID: ReferenceClient.id, clientSecret: ReferenceClient.secret))
        let server = try HTTPServer(handler: reference.handler)
        server.start()
        return server
    }

    private func authorizeURL(_ base: String) -> String {
        base + "/oauth/authorize?response_type=code&client_id=\(ReferenceClient.id)&redirect_uri="
            + FormEncoding.encode("https://oauth-redirect.googleusercontent.com/r/reference-project") + "&scope=devices&state=st%2Bate"
    }

    @Test("Sign in, consent, and get a code at the redirect URI; the state comes back; every POST is answered 303")
    func approve() throws {
        let server = try serve()
        defer { server.stop() }
        let browser = try Browser(port: server.port)
        let (first, firstURL) = try browser.send("GET", authorizeURL(browser.base))
        #expect(first.status == 200)
        let signIn = try #require(HTMLDocument(first.body).form(matching: "username,password"))
        #expect(signIn.hiddenFields.map(\.name) == ["csrf", "return_to"])
        let (afterLogin, _) = try browser.submit(signIn, on: firstURL, values: ["username": "approver", "password": "approver-password"])
        #expect(afterLogin.status == 303)
        let back = try #require(URLReference.resolve(afterLogin.headers["Location"] ?? "", against: browser.base + "/login"))
        #expect(back.hasPrefix(browser.base + "/oauth/authorize?"))
        let (consentPage, consentURL) = try browser.send("GET", back)
        let consent = try #require(HTMLDocument(consentPage.body).form(matching: "#consent"))
        let allow = try #require(consent.submitButtons.first { $0.value == "approve" })
        let (final, _) = try browser.submit(consent, on: consentURL, button: allow)
        #expect(final.status == 303)
        let location = final.headers["Location"] ?? ""
        #expect(location.hasPrefix("https://oauth-redirect.googleusercontent.com/r/reference-project?code="))
        #expect(location.contains("&state=st%2Bate"))
        #expect(location.hasSuffix("&iss=" + FormEncoding.encode(browser.base)), "RFC 9207: the issuer, as the metadata advertises")
    }

    @Test("Deny at the consent form gives access_denied; a consent POST without its token or with a spent one is refused")
    func denyAndForgery() throws {
        let server = try serve()
        defer { server.stop() }
        let browser = try Browser(port: server.port)
        let (first, firstURL) = try browser.send("GET", authorizeURL(browser.base))
        let signIn = try #require(HTMLDocument(first.body).form(matching: "#sign-in"))
        let (afterLogin, _) = try browser.submit(signIn, on: firstURL, values: ["username": "refuser", "password": "refuser-password"])
        let (consentPage, consentURL) = try browser.send(
            "GET", URLReference.resolve(afterLogin.headers["Location"] ?? "", against: browser.base) ?? "")
        let consent = try #require(HTMLDocument(consentPage.body).form(matching: "#consent"))
        // Forged: no token.
        var forged = consent
        forged.fields.removeAll { $0.name == "csrf" }
        #expect(try browser.submit(forged, on: consentURL, button: consent.submitButtons[0]).0.status == 403)
        let deny = try #require(consent.submitButtons.first { $0.value == "deny" })
        let (denied, _) = try browser.submit(consent, on: consentURL, button: deny)
        #expect(denied.headers["Location"]?.contains("error=access_denied") == true)
        // The token is single-use: replaying the same form is refused.
        #expect(try browser.submit(consent, on: consentURL, button: deny).0.status == 403)
    }

    @Test("Wrong credentials show the form again; a return_to off the authorization endpoint is refused")
    func wrongPasswordAndOpenRedirect() throws {
        let server = try serve()
        defer { server.stop() }
        let browser = try Browser(port: server.port)
        let (first, firstURL) = try browser.send("GET", authorizeURL(browser.base))
        let signIn = try #require(HTMLDocument(first.body).form(matching: "#sign-in"))
        let (again, _) = try browser.submit(signIn, on: firstURL, values: ["username": "approver", "password": "nope"])
        #expect(again.status == 200)
        let retry = try #require(HTMLDocument(again.body).form(matching: "#sign-in"))
        let (evil, _) = try browser.submit(
            retry, on: firstURL,
            values: [
                "username": "approver", "password": "approver-password",
                "return_to": "https://evil.example/",
            ])
        #expect(evil.status == 400)
        #expect(evil.headers["Location"] == nil)
    }
}
