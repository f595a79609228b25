import AppFlipHTTP
import AppFlipReference
import Foundation

/// The reference server's real sign-in and consent pages, for a suite that signs in as a browser would.
///
/// `GET /oauth/authorize` without a session shows a sign-in form (`#sign-in`: username, password, a hidden
/// anti-forgery token bound to a pre-session cookie, and `return_to`); `POST /login` checks them, sets a session
/// cookie and sends the browser back with 303; the authorization request then shows a consent form (`#consent`,
/// its own anti-forgery token bound to the session, buttons `decision=approve` and `decision=deny`); `POST
/// /oauth/consent` answers with the authorization response. Test users: `approver`, `second`, `refuser`, `disabled`, each
/// with the password `<name>-password`. A POST without the right token is refused with 403 (RFC 6749 §10.12).
struct SignInPages {
    let state: OAuthState

    static let loginCookie = "reference-login"
    static let sessionCookie = "reference-session"
    static let users = ["approver", "second", "refuser", "disabled"]

    /// The user a session cookie signs in, if any.
    func sessionUser(_ request: HTTPRequest) -> String? {
        Self.cookie(Self.sessionCookie, in: request).flatMap { state.sessionUser($0) }
    }

    func signInPage(returnTo: String) -> HTTPResponse {
        let login = CodeMinter.mint()
        let token = state.newToken(for: "login:" + login)
        let body = """
            <!doctype html><html><head><meta charset="utf-8"><title>Sign in</title></head><body>
            <h1>Sign in to link your account with Google</h1>
            <form id="sign-in" method="post" action="/login">
            <input type="hidden" name="csrf" value="\(HTML.escape(token))">
            <input type="hidden" name="return_to" value="\(HTML.escape(returnTo))">
            <label>User <input type="text" name="username" autocomplete="username"></label>
            <label>Password <input type="password" name="password" autocomplete="current-password"></label>
            <button type="submit">Sign in</button>
            </form></body></html>
            """
        var headers = HTML.pageHeaders(contentType: "text/html; charset=utf-8")
        headers.append("Set-Cookie", "\(Self.loginCookie)=\(login); Path=/; HttpOnly; SameSite=Lax")
        return HTTPResponse(status: 200, headers: headers, body: Array(body.utf8))
    }

    /// `POST /login`.
    func login(_ request: HTTPRequest) -> HTTPResponse {
        let form = RequestParameters(Substring(String(decoding: request.body, as: UTF8.self)))
        guard request.method == "POST", let login = Self.cookie(Self.loginCookie, in: request), let token = form.text("csrf"),
            state.consumeToken(token, for: "login:" + login)
        else {
            return HTML.page(status: 403, title: "Forbidden", message: "The sign-in form expired or was not sent from this site.")
        }
        // Only a path on this server: never an open redirector (RFC 9700 §2.1).
        let returnTo = form.text("return_to") ?? ""
        guard returnTo.hasPrefix("/oauth/authorize?") else {
            return HTML.page(status: 400, title: "Bad request", message: "return_to must be an authorization request on this server.")
        }
        guard let user = form.text("username"), Self.users.contains(user), form.text("password") == user + "-password" else {
            return signInPage(returnTo: returnTo)
        }
        let session = state.newSession(user: user)
        var headers = HTML.pageHeaders(contentType: "text/plain; charset=utf-8")
        headers.append("Set-Cookie", "\(Self.sessionCookie)=\(session); Path=/; HttpOnly; SameSite=Lax")
        headers.append("Location", returnTo)
        return HTTPResponse(status: 303, headers: headers)
    }

    func consentPage(user: String, request query: String) -> HTTPResponse {
        let token = state.newToken(for: "consent:" + user + ":" + query)
        let body = """
            <!doctype html><html><head><meta charset="utf-8"><title>Link with Google</title></head><body>
            <h1>Link your account with Google?</h1><p>Signed in as \(HTML.escape(user)).</p>
            <form id="consent" method="post" action="/oauth/consent">
            <input type="hidden" name="csrf" value="\(HTML.escape(token))">
            <input type="hidden" name="request" value="\(HTML.escape(query))">
            <button type="submit" name="decision" value="approve">Allow</button>
            <button type="submit" name="decision" value="deny">Deny</button>
            </form></body></html>
            """
        return HTTPResponse(status: 200, headers: HTML.pageHeaders(contentType: "text/html; charset=utf-8"), body: Array(body.utf8))
    }

    /// `POST /oauth/consent`: the decision, for the authorization request it carries.
    func consent(_ request: HTTPRequest, endpoint: AuthorizationEndpoint) -> HTTPResponse {
        let form = RequestParameters(Substring(String(decoding: request.body, as: UTF8.self)))
        guard request.method == "POST", let user = sessionUser(request), let query = form.text("request"), let token = form.text("csrf"),
            state.consumeToken(token, for: "consent:" + user + ":" + query)
        else {
            return HTML.page(status: 403, title: "Forbidden", message: "The consent form expired or was not sent from this site.")
        }
        let decision = form.text("decision")
        guard decision == "approve" || decision == "deny" else {
            return HTML.page(status: 400, title: "Bad request", message: "decision is approve or deny.")
        }
        var authorization = HTTPRequest(method: "GET", target: "/oauth/authorize?" + query, headers: request.headers)
        authorization.headers.fields.removeAll { $0.name.lowercased() == "content-type" }
        var response = endpoint.handle(authorization, consent: (user, decision == "approve"))
        // A POST is answered with 303, never 307 or 308, which would replay the form (RFC 9700 §4.12).
        if response.status == 302 { response.status = 303 }
        return response
    }

    /// The value of one cookie the request carries.
    static func cookie(_ name: String, in request: HTTPRequest) -> String? {
        for header in request.headers.values("Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0] == name { return String(parts[1]) }
            }
        }
        return nil
    }
}
