import AppFlipHTTP
import AppFlipReference
import Foundation

/// `GET /oauth/authorize` (RFC 6749 §4.1.1), in the order the catalog asks for: client and redirect URI first,
/// with an error page and no redirect when either is wrong; then the user is authenticated; then every other error
/// is redirected to the verified redirect URI with the state.
struct AuthorizationEndpoint {
    let configuration: ReferenceServerConfiguration
    let state: OAuthState

    static let defined = ["response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge", "code_challenge_method"]

    /// How the user signs in through real pages (a session from `/login`, consent from `/oauth/consent`).
    var signIn: SignInPages { SignInPages(state: state) }

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        handle(request, consent: nil)
    }

    /// Handles an authorization request; `consent` is the decision a consent form POST carries for it.
    func handle(_ request: HTTPRequest, consent: (user: String, approve: Bool)?) -> HTTPResponse {
        guard request.method == "GET" else {
            var response = HTML.page(status: 405, title: "Method not allowed", message: "The authorization endpoint takes GET.")
            response.headers.append("Allow", "GET")
            return response
        }
        let parameters = RequestParameters(request.query ?? "")
        // Client and redirect URI first: until both are known good, nothing is redirected (an error page instead).
        let client: Client
        switch self.client(parameters) {
        case .success(let found): client = found
        case .failure(let page): return page.response
        }
        // The user is authenticated before any redirect (RFC 9700 §4.11.2).
        var (user, approve): (String, Bool)
        switch self.user(request, consent: consent) {
        case .success(let found): (user, approve) = found
        case .failure(let page): return page.response
        }
        let response = Response(redirectURI: client.redirectURI, state: parameters.text("state"), issuer: Self.issuer(of: request))
        let grant: Grant
        switch Self.grant(parameters, isNative: client.isNative) {
        case .success(let valid): grant = valid
        case .failure(let refusal): return response.error(refusal.code, refusal.description)
        }
        if consent == nil && Self.user(request) == nil { return signIn.consentPage(user: user, request: String(request.query ?? "")) }
        if user == "disabled" { approve = false }
        guard approve else { return response.error("access_denied", "The user refused") }
        let code = state.storeCode(
            OAuthState.IssuedCode(
                clientID: client.id, redirectURI: client.redirectURI, scope: grant.scope,
                challenge: grant.challenge, method: grant.challenge == nil ? nil : (grant.method ?? "plain"),
                expires: Date().addingTimeInterval(configuration.codeLifetime), user: user))
        return response.redirect([("code", code)])
    }

    /// A page the endpoint answers instead of redirecting.
    struct Page: Error {
        var response: HTTPResponse
    }

    /// The client an authorization request names, with its registered redirect URI.
    struct Client {
        var id: String
        var redirectURI: String
        var isNative: Bool
    }

    /// The request's client and redirect URI, both known good, or the error page (never a redirect).
    private func client(_ parameters: RequestParameters) -> Result<Client, Page> {
        guard case .value(let clientID) = parameters.single("client_id"),
            clientID == configuration.clientID || clientID == ReferenceServerConfiguration.nativeClientID
        else {
            return .failure(
                Page(
                    response: HTML.page(
                        status: 400, title: "Unknown client",
                        message: "The client_id is missing, repeated or not registered: "
                            + (parameters.values("client_id").first.flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) } ?? "(none)"))))
        }
        let isNative = clientID == ReferenceServerConfiguration.nativeClientID
        guard case .value(let redirectURI) = parameters.single("redirect_uri"),
            isNative ? ReferenceServerConfiguration.nativeRedirectMatches(redirectURI) : configuration.registeredRedirectURIs.contains(redirectURI)
        else {
            let shown = parameters.values("redirect_uri").first.flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) } ?? "(none)"
            return .failure(
                Page(
                    response: HTML.page(
                        status: 400, title: "Invalid redirect URI",
                        message: "The redirect_uri is missing, repeated or not registered for this client: \(shown)")))
        }
        return .success(Client(id: clientID, redirectURI: redirectURI, isNative: isNative))
    }

    /// Who is signing in and whether they approve: the consent form's decision, the test hook's cookie, or a session
    /// from the sign-in form (then the consent form decides); without any, the sign-in page.
    private func user(_ request: HTTPRequest, consent: (user: String, approve: Bool)?) -> Result<(String, Bool), Page> {
        if let consent { return .success(consent) }
        if let hooked = Self.user(request) { return .success((hooked, ["approver", "second"].contains(hooked))) }
        if let signedIn = signIn.sessionUser(request) { return .success((signedIn, false)) }
        return .failure(Page(response: signIn.signInPage(returnTo: request.target)))
    }

    /// The authorization response, to the client's redirect URI with the state and the issuer (RFC 9207).
    struct Response {
        var redirectURI: String
        var state: String?
        var issuer: String

        func redirect(_ pairs: [(String, String)]) -> HTTPResponse {
            var all = pairs
            if let state { all.append(("state", state)) }
            // RFC 9207: the issuer in every authorization response, as the metadata advertises.
            all.append(("iss", issuer))
            let query = all.map { "\($0.0)=\(QueryCodec.encode(Array($0.1.utf8)))" }.joined(separator: "&")
            var headers = HTML.pageHeaders(contentType: "text/plain; charset=utf-8")
            headers.append("Location", redirectURI + "?" + query)
            return HTTPResponse(status: 302, headers: headers)
        }

        func error(_ code: String, _ description: String) -> HTTPResponse {
            redirect([("error", code), ("error_description", description)])
        }
    }

    /// What a valid request asks to be granted: the scope the client may have, and its PKCE challenge.
    struct Grant {
        var scope: String
        var challenge: String?
        var method: String?
    }

    /// An error the endpoint redirects with (RFC 6749 §4.1.2.1).
    struct Refusal: Error {
        var code: String
        var description: String
    }

    /// The request's parameters read as a grant, or the error to redirect with.
    private static func grant(_ parameters: RequestParameters, isNative: Bool) -> Result<Grant, Refusal> {
        if !parameters.repeated(among: defined).isEmpty {
            return .failure(Refusal(code: "invalid_request", description: "A parameter was sent more than once"))
        }
        if parameters.pairs.contains(where: { $0.name.map { defined.contains(String(decoding: $0, as: UTF8.self)) } ?? false && $0.value == nil }) {
            return .failure(Refusal(code: "invalid_request", description: "A parameter has a malformed percent-escape"))
        }
        switch parameters.single("response_type") {
        case .value("code"): break
        case .value: return .failure(Refusal(code: "unsupported_response_type", description: "Only response_type=code is supported"))
        default: return .failure(Refusal(code: "invalid_request", description: "response_type is required"))
        }
        let scope = parameters.text("scope") ?? "devices"
        if !QueryCodec.isValidScope(Array(scope.utf8)) { return .failure(Refusal(code: "invalid_scope", description: "The scope is malformed")) }
        // Google's client may not have some scopes: they are dropped, and the token response says what was granted.
        let granted = scope.split(separator: " ").filter { !ReferenceServerConfiguration.withheldScopes.contains(String($0)) }
            .joined(separator: " ")
        if granted.isEmpty {
            return .failure(Refusal(code: "invalid_scope", description: "None of the requested scopes can be granted to this client"))
        }
        let challenge = parameters.text("code_challenge")
        let method = parameters.text("code_challenge_method")
        if let problem = pkceProblem(challenge: challenge, method: method, isNative: isNative) {
            return .failure(Refusal(code: "invalid_request", description: problem))
        }
        return .success(Grant(scope: granted, challenge: challenge, method: method))
    }

    /// Why the PKCE parameters are refused (invalid_request), or nil.
    private static func pkceProblem(challenge: String?, method: String?, isNative: Bool) -> String? {
        // A public native client must use PKCE (RFC 8252 §8.1, RFC 7636 §4.4.1).
        if isNative, challenge == nil { return "A native client must send a code_challenge" }
        if challenge == nil, method != nil { return "code_challenge_method without code_challenge" }
        guard let challenge else { return nil }
        switch method ?? "plain" {
        case "S256":
            return challenge.utf8.count == 43 && challenge.utf8.allSatisfy(isBase64URL) ? nil : "An S256 code_challenge is 43 base64url characters"
        case "plain":
            return (43...128).contains(challenge.utf8.count) && challenge.utf8.allSatisfy(isUnreserved)
                ? nil : "A plain code_challenge is 43 to 128 unreserved characters"
        default:
            return "code_challenge_method must be S256 or plain"
        }
    }

    /// The server's issuer identifier: its own origin, as the request reached it.
    static func issuer(of request: HTTPRequest) -> String {
        "http://" + (request.headers["Host"] ?? "127.0.0.1")
    }

    /// `GET /.well-known/oauth-authorization-server` (RFC 8414), advertising iss (RFC 9207 §3).
    static func metadata(_ request: HTTPRequest) -> HTTPResponse {
        let issuer = issuer(of: request)
        let document: [String: Any] = [
            "issuer": issuer, "authorization_endpoint": issuer + "/oauth/authorize", "token_endpoint": issuer + "/oauth/token",
            "revocation_endpoint": issuer + "/oauth/revoke", "response_types_supported": ["code"],
            "code_challenge_methods_supported": ["S256", "plain"], "authorization_response_iss_parameter_supported": true,
        ]
        let body = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])).map { [UInt8]($0) } ?? []
        return HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: body)
    }

    /// The test user the request's cookie names, if any (the test hook).
    static func user(_ request: HTTPRequest) -> String? {
        SignInPages.cookie(ReferenceServerConfiguration.userCookie, in: request)
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        isBase64URL(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "~")
    }

    static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}
