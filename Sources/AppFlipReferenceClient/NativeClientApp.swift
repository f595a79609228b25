import AppFlipDigest
import AppFlipHTTP
import AppFlipReference
import AppFlipTLS
import Foundation

/// A correct native OAuth client (RFC 8252, RFC 7636, Google's installed-app flow) behind the native-client adapter
/// contract: what a partner's app does, without the app. PKCE S256 with a fresh verifier and state per sign-in,
/// a private-use-scheme or loopback redirect, the token request with the same redirect URI, bearer tokens only,
/// rotated refresh tokens kept, a new sign-in after `invalid_grant`, revocation on sign-out.
package final class NativeClientApp {
    /// How the app receives the authorization response.
    package enum RedirectMode: String, Sendable {
        /// A private-use URI scheme (`com.example.app:/oauth2redirect`): the suite delivers the redirect.
        case scheme
        /// A loopback listener on 127.0.0.1 and an ephemeral port, open only until the callback.
        case loopback
    }

    struct Endpoints {
        var authorization: String
        var token: String
        var revocation: String?
        var clientID: String
        /// The installed-app client secret of the configuration, when it gives one.
        var clientSecret: String?
        var scopes: [String]
        var redirectURI: String?
        /// The issuer its responses must name (RFC 9207), when the server says it sends one.
        var issuer: String?
    }

    /// One sign-in in progress.
    struct Pending {
        var endpoints: Endpoints
        var state: String
        var verifier: String
        var redirectURI: String
        var listener: LoopbackListener?
    }

    /// Each stage a broken client (Tests/BrokenNativeClient) replaces to prove a check fails; correct by default.
    /// How the app names itself at the token endpoint (RFC 6749 §2.3.1).
    package enum ClientAuthentication: Sendable {
        /// client_id in the body and no secret, as a public client (the reference's way).
        case publicClient
        /// HTTP Basic with the client ID and the installed-app secret, and no client_id in the body: what Google's
        /// installed-app library sends.
        case basic
        /// HTTP Basic and client_secret in the body: two ways of authenticating at once, which §2.3 forbids.
        case twice
    }

    package struct Behaviour: Sendable {
        package var clientAuthentication = ClientAuthentication.publicClient
        /// The secret it presents, given the configured one (Basic or the body).
        package var presentedSecret: @Sendable (String) -> String = { $0 }
        /// Whether the authorization request carries a PKCE challenge.
        package var sendsChallenge = true
        /// Revokes with the token in the query of the POST, as Google documents its endpoint, not in the body (RFC 7009).
        package var revokesInQuery = false
        /// After an error response, asks the token endpoint for a client_credentials token (no code, no PKCE).
        package var clientCredentialsAfterError = false
        /// Puts the code_verifier in the code exchange's URL as well as its body.
        package var verifierInQuery = false
        /// Sends the last code_verifier along with the revocation request on sign-out.
        package var verifierOnSignOut = false
        package var challengeMethod = "S256"
        /// After the server refused a request, the next one uses plain (a downgrade).
        package var plainAfterError = false
        package var fixedVerifier: String?
        package var sendsState = true
        package var checksState = true
        package var loopbackHost = "127.0.0.1"
        /// The address the loopback listener binds, and whether it is closed once the callback came.
        package var listenAddress = "127.0.0.1"
        package var closesListener = true
        /// A listener the browser cannot use: closed before the browser comes, or one that takes the connection
        /// and never answers (nor tells the app).
        package var unusableListener: UnusableListener?
        /// What the code exchange sends as redirect_uri, given the request's.
        package var exchangeRedirectURI: @Sendable (String) -> String = { $0 }
        package var keepsOldRefreshToken = false
        package var acceptsAnyTokenType = false
        /// Re-posts the code exchange to a 307's Location, verifier and all.
        package var followsRedirects = false
        package var revokesOnSignOut = true
        /// What the code exchange sends as code_verifier, given the kept one (nil: none at all).
        package var exchangeVerifier: @Sendable (String) -> String? = { $0 }
        /// Keeps a sign-in pending after its response, so the same response is accepted again.
        package var keepsPendingAfterResponse = false
        package var checksIssuer = true
        /// With no sign-in pending, exchanges whatever response arrives (login CSRF).
        package var acceptsUnsolicited = false
        /// How the app opens the page: external (the system browser or ASWebAuthenticationSession).
        package var userAgent = "external"
        /// What the app does when the discovery document offers no S256: uses S256 anyway (correct: it is mandatory
        /// to implement on the server, RFC 7636 §4.2), refuses to sign in (also correct), or uses plain (broken).
        package var withoutS256InMetadata = MetadataPolicy.useS256
        /// How long the code exchange may take, and whether the app sends it again when that runs out.
        package var exchangeTimeout: Double = 10
        package var retriesExchange = false
        /// Each sign-in's state (the reference: 32 random octets).
        package var makeState: @Sendable () -> String = { NativeClientApp.randomToken() }
        /// Answers every sign-in with rejected (a breach of the contract unless the server gave a reason).
        package var refusesSignIn = false
        /// Keeps the first sign-in's token and revocation endpoints for every later one, as a google-auth-oauthlib
        /// `Flow` reused across sign-ins does (a broken client: the configuration names them per sign-in).
        package var keepsFirstEndpoints = false
        /// The authorization request's parameters as sent, given the reference's (a broken client's edits).
        package var authorizationParameters: @Sendable ([(String, String)]) -> [(String, String)] = { $0 }
        /// Refuses a token response that carries a member it does not know (RFC 6749 §5.1 says ignore it).
        package var refusesUnknownMembers = false
        /// Runs before each command with it (a hostile client's extra traffic: Tests/BrokenNativeClient).
        package var beforeCommand: (@Sendable ([String: Any]) -> Void)?
        /// How https connections are made (nil: verified against the system's store and the CA the configuration gives,
        /// the host name included). A broken client's careless TLS replaces it.
        package var tlsConnector: HTTPClient.TLSConnector?

        package init() {}
    }

    package enum UnusableListener: Sendable {
        /// Closed before the app answers open-browser; the app then answers await-redirect at once, with rejected.
        case closedEarly
        /// Takes the connection and never answers it.
        case silent
    }

    package enum MetadataPolicy: Sendable {
        case useS256
        case refuse
        case usePlain
    }

    package var behaviour = Behaviour()
    private var refused = false
    /// The last sign-in started (a broken client that accepts unsolicited responses uses it).
    private var lastFlow: Pending?
    /// Listeners a broken client leaves open.
    private var lingering: [LoopbackListener] = []
    /// What this app trusts: the system's store, and the CA its configuration gives (kept across sign-ins, so one
    /// given the same CA every time keeps its TLS context).
    private var network: Network = .system
    let mode: RedirectMode
    let schemeURI: String
    private var endpoints: Endpoints?
    private var pending: Pending?
    private var accessToken: String?
    /// The verifier of the last code exchange (a defect re-sends it).
    private var lastVerifier: String?
    private var refreshToken: String?

    package init(mode: RedirectMode, schemeURI: String = "com.example.reference:/oauth2redirect") {
        self.mode = mode
        self.schemeURI = schemeURI
    }

    /// The answer to one command (without its `id`).
    package func handle(_ request: [String: Any]) -> [String: Any] {
        behaviour.beforeCommand?(request)
        switch request["command"] as? String {
        case "sign-in": return signIn(request["configuration"] as? [String: Any] ?? [:])
        case "deliver-redirect":
            guard let url = request["url"] as? String else { return rejected("deliver-redirect without a url") }
            return complete(redirect: url)
        case "await-redirect": return awaitRedirect()
        case "refresh": return refresh()
        case "call-api":
            guard let accessToken else { return ["action": "no-token"] }
            return ["action": "api-call", "authorization": "Bearer " + accessToken]
        case "sign-out": return signOut()
        case let other: return rejected("unknown command \(other ?? "(none)")")
        }
    }

    private func rejected(_ reason: String) -> [String: Any] { ["action": "rejected", "reason": reason] }

    // MARK: Sign-in

    private func signIn(_ configuration: [String: Any]) -> [String: Any] {
        guard let authorization = configuration["authorization_endpoint"] as? String, let token = configuration["token_endpoint"] as? String,
            let clientID = configuration["client_id"] as? String
        else {
            return rejected("the configuration needs authorization_endpoint, token_endpoint and client_id")
        }
        let kept = behaviour.keepsFirstEndpoints ? self.endpoints : nil
        let endpoints = Endpoints(
            authorization: authorization, token: kept?.token ?? token,
            revocation: kept.map { $0.revocation } ?? configuration["revocation_endpoint"] as? String,
            clientID: clientID, clientSecret: configuration["client_secret"] as? String,
            scopes: configuration["scopes"] as? [String] ?? ["openid"],
            redirectURI: configuration["redirect_uri"] as? String,
            issuer: configuration["authorization_response_iss_parameter_supported"] as? Bool == true
                ? configuration["issuer"] as? String : nil)
        self.endpoints = endpoints
        // The CA the configuration gives for an https token endpoint is trusted besides the system's store, as an app
        // built to trust its server's CA does.
        if let pem = configuration["ca_pem"] as? String { network = Network(trust: network.trust.adding(pem: pem)) }
        pending?.listener?.stop()
        if behaviour.refusesSignIn { return rejected("this app does not sign in") }
        // The discovery document, read as AppAuth's discoverConfiguration does; its PKCE methods change nothing.
        var method = behaviour.plainAfterError && refused ? "plain" : behaviour.challengeMethod
        if let discovery = configuration["discovery_url"] as? String, let methods = metadataMethods(discovery), !methods.contains("S256") {
            switch behaviour.withoutS256InMetadata {
            case .useS256: break
            case .refuse: return rejected("the authorization server offers no S256 (code_challenge_methods_supported: \(methods))")
            case .usePlain: method = "plain"
            }
        }
        // A fresh state and verifier for every request (RFC 8252 §8.9, RFC 7636 §4.1): 32 random octets each.
        let state = behaviour.makeState()
        let verifier = behaviour.fixedVerifier ?? Self.randomToken()
        var listener: LoopbackListener?
        let redirectURI: String
        switch mode {
        case .scheme:
            redirectURI = endpoints.redirectURI ?? schemeURI
        case .loopback:
            guard let opened = try? LoopbackListener(host: behaviour.listenAddress, silent: behaviour.unusableListener == .silent) else {
                return rejected("cannot open a loopback listener")
            }
            if behaviour.unusableListener == .closedEarly { opened.stop() }
            listener = opened
            redirectURI = "http://\(behaviour.loopbackHost):\(opened.port)/callback"
        }
        pending = Pending(endpoints: endpoints, state: state, verifier: verifier, redirectURI: redirectURI, listener: listener)
        lastFlow = pending
        let challenge = method == "plain" ? verifier : Base64URL.encode(SHA256.hash(Array(verifier.utf8)))
        var parameters =
            [
                ("client_id", clientID), ("redirect_uri", redirectURI), ("response_type", "code"),
                ("scope", endpoints.scopes.joined(separator: " ")),
            ] + (behaviour.sendsChallenge ? [("code_challenge", challenge), ("code_challenge_method", method)] : [])
        if behaviour.sendsState { parameters.insert(("state", state), at: 4) }
        parameters = behaviour.authorizationParameters(parameters)
        let separator = authorization.contains("?") ? "&" : "?"
        return [
            "action": "open-browser", "user_agent": behaviour.userAgent,
            "url": authorization + separator + Self.form(parameters),
        ]
    }

    private func awaitRedirect() -> [String: Any] {
        guard let listener = pending?.listener else { return rejected("no loopback sign-in is pending") }
        if behaviour.unusableListener == .closedEarly { return rejected("the loopback listener is closed") }
        let target = listener.awaitCallback(timeout: 10)
        if behaviour.closesListener {
            listener.stop()  // open only for the duration of the request (RFC 8252 §8.3)
        } else {
            lingering.append(listener)
        }
        pending?.listener = nil
        guard let target, let redirectURI = pending?.redirectURI else { return rejected("no callback reached the loopback listener") }
        let query = target.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        return complete(redirect: redirectURI + "?" + query)
    }

    /// The authorization response: accepted only for the pending request and its state, then exchanged once.
    private func complete(redirect url: String) -> [String: Any] {
        guard let flow = pending ?? (behaviour.acceptsUnsolicited ? lastFlow : nil) else { return rejected("no sign-in is pending") }
        if !behaviour.keepsPendingAfterResponse { pending = nil }  // one response per request: a replay finds nothing pending
        let parameters = Dictionary(
            QueryCodec.pairs(Substring(QueryCodec.query(of: url))).compactMap { pair -> (String, String)? in
                guard let name = pair.name.flatMap({ String(validating: $0, as: UTF8.self) }),
                    let value = pair.value.flatMap({ String(validating: $0, as: UTF8.self) })
                else { return nil }
                return (name, value)
            }, uniquingKeysWith: { first, _ in first })
        guard !behaviour.checksState || !behaviour.sendsState || parameters["state"] == flow.state || (behaviour.acceptsUnsolicited && pending == nil)
        else {
            return rejected("the state does not match the pending request")
        }
        // RFC 9207 §2.4: from a server that sends iss, a response naming another issuer (or none) is a mix-up.
        if behaviour.checksIssuer, let issuer = flow.endpoints.issuer, parameters["iss"] != issuer {
            return rejected("the response names issuer \(parameters["iss"] ?? "(none)"), not \(issuer)")
        }
        if let error = parameters["error"] {
            refused = true
            if behaviour.clientCredentialsAfterError {
                _ = post(flow.endpoints.token, [("grant_type", "client_credentials"), ("client_id", flow.endpoints.clientID)])
            }
            return rejected("the authorization server answered error=\(error)")
        }
        guard let code = parameters["code"], !code.isEmpty else { return rejected("no code in the redirect") }
        let (clientFields, clientHeaders) = client(flow.endpoints)
        let exchange =
            [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", behaviour.exchangeRedirectURI(flow.redirectURI)),
            ] + clientFields + (behaviour.exchangeVerifier(flow.verifier).map { [("code_verifier", $0)] } ?? [])
        let tokenURL = flow.endpoints.token + (behaviour.verifierInQuery ? "?" + Self.form([("code_verifier", flow.verifier)]) : "")
        lastVerifier = flow.verifier
        var answer = post(tokenURL, exchange, headers: clientHeaders, timeout: behaviour.exchangeTimeout)
        if behaviour.retriesExchange, case .failure = answer {
            answer = post(tokenURL, exchange, headers: clientHeaders, timeout: behaviour.exchangeTimeout)  // the same code again
        }
        return accept(answer, keepingRefreshToken: false) ?? ["action": "signed-in"]
    }

    // MARK: Tokens

    /// Takes a token response; nil when accepted, else the rejection to answer.
    private func accept(_ answer: Result<(status: Int, json: [String: Any]), HTTPClient.Failure>, keepingRefreshToken: Bool) -> [String: Any]? {
        switch answer {
        case .failure(let failure):
            return rejected("the token endpoint could not be used: \(failure.message)")
        case .success(let (status, json)):
            guard status == 200 else {
                if json["error"] as? String == "invalid_grant" {
                    accessToken = nil
                    refreshToken = nil
                    return rejected("invalid_grant: the user must sign in again")
                }
                return rejected("the token endpoint answered \(status)")
            }
            guard let access = json["access_token"] as? String, !access.isEmpty else { return rejected("no access_token in the answer") }
            let known: Set<String> = ["access_token", "token_type", "expires_in", "refresh_token", "scope", "id_token"]
            if behaviour.refusesUnknownMembers, let unknown = json.keys.first(where: { !known.contains($0) }) {
                return rejected("the token response carries \(unknown), which this app does not know")
            }
            // Unknown members are ignored (RFC 6749 §5.1); a token of a type the app does not know is not used (§7.1).
            guard behaviour.acceptsAnyTokenType || (json["token_type"] as? String)?.lowercased() == "bearer" else {
                return rejected("token_type \(json["token_type"] as? String ?? "(none)") is not bearer: the token is not used")
            }
            accessToken = access
            if let rotated = json["refresh_token"] as? String, !rotated.isEmpty, !(behaviour.keepsOldRefreshToken && refreshToken != nil) {
                refreshToken = rotated  // a rotated refresh token replaces the old one (RFC 6749 §6)
            } else if !keepingRefreshToken {
                refreshToken = nil
            }
            return nil
        }
    }

    private func refresh() -> [String: Any] {
        guard let endpoints, let refreshToken else { return rejected("no refresh token: sign in first") }
        let (clientFields, clientHeaders) = client(endpoints)
        let answer = post(endpoints.token, [("grant_type", "refresh_token"), ("refresh_token", refreshToken)] + clientFields, headers: clientHeaders)
        return accept(answer, keepingRefreshToken: true) ?? ["action": "refreshed"]
    }

    private func signOut() -> [String: Any] {
        defer {
            accessToken = nil
            refreshToken = nil
        }
        guard let endpoints, let token = refreshToken ?? accessToken else { return ["action": "signed-out"] }
        if let revocation = endpoints.revocation, behaviour.revokesOnSignOut {
            let hint = refreshToken != nil ? "refresh_token" : "access_token"
            if behaviour.revokesInQuery {
                _ = post(revocation + (revocation.contains("?") ? "&" : "?") + Self.form([("token", token)]), [])
            } else {
                _ = post(
                    revocation,
                    [("token", token), ("token_type_hint", hint), ("client_id", endpoints.clientID)]
                        + (behaviour.verifierOnSignOut ? [("code_verifier", lastVerifier ?? "")] : []))
            }
        }
        return ["action": "signed-out"]
    }

    // MARK: HTTP

    /// The PKCE methods a discovery document lists, or nil when it cannot be read (the configuration then stands).
    private func metadataMethods(_ url: String) -> [String]? {
        guard let (origin, target) = HTTPOrigin.split(url),
            let client = try? HTTPClient(
                origin: origin, network: network, timeouts: HTTPClient.Timeouts(connect: 5, total: 10), tls: behaviour.tlsConnector)
        else { return nil }
        defer { client.close() }
        guard let response = try? client.send(HTTPRequest(method: "GET", target: target, headers: HTTPHeaders([("Accept", "application/json")]))),
            response.status == 200,
            let json = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        else { return nil }
        return json["code_challenge_methods_supported"] as? [String]
    }

    /// The body fields and headers that name the client, as `behaviour.clientAuthentication` says.
    private func client(_ endpoints: Endpoints) -> (fields: [(String, String)], headers: [(String, String)]) {
        let secret = behaviour.presentedSecret(endpoints.clientSecret ?? "")
        let basic = (
            "Authorization",
            "Basic "
                + Data(
                    (Self.form([("", endpoints.clientID)]).dropFirst() + ":"
                        + Self.form([("", secret)]).dropFirst()).utf8
                ).base64EncodedString()
        )
        switch behaviour.clientAuthentication {
        case .publicClient: return ([("client_id", endpoints.clientID)], [])
        case .basic: return ([], [basic])
        case .twice: return ([("client_secret", secret)], [basic])
        }
    }

    private func post(
        _ url: String, _ parameters: [(String, String)], headers extra: [(String, String)] = [],
        timeout: Double = 10
    ) -> Result<(status: Int, json: [String: Any]), HTTPClient.Failure> {
        guard let (origin, target) = HTTPOrigin.split(url) else { return .failure(HTTPClient.Failure(message: "not an http(s) URL: \(url)")) }
        do {
            let client = try HTTPClient(
                origin: origin, network: network, timeouts: HTTPClient.Timeouts(connect: 5, total: timeout), tls: behaviour.tlsConnector)
            defer { client.close() }
            let request = HTTPRequest(
                method: "POST", target: target,
                headers: HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")] + extra),
                body: Array(Self.form(parameters).utf8))
            // Redirects are never followed: a 307 would re-post the verifier elsewhere (RFC 7636 §4.5).
            var response = try client.send(request)
            if behaviour.followsRedirects, response.status == 307, let location = response.headers["Location"],
                let (movedOrigin, movedTarget) = HTTPOrigin.split(location)
            {
                let moved = try HTTPClient(
                    origin: movedOrigin, network: network, timeouts: HTTPClient.Timeouts(connect: 5, total: 10), tls: behaviour.tlsConnector)
                defer { moved.close() }
                response = try moved.send(HTTPRequest(method: "POST", target: movedTarget, headers: request.headers, body: request.body))
            }
            let json = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
            return .success((response.status, json))
        } catch {
            return .failure(error)
        }
    }

    static func form(_ parameters: [(String, String)]) -> String {
        parameters.map { "\($0.0)=" + QueryCodec.encode(Array($0.1.utf8)) }.joined(separator: "&")
    }

    /// 32 random octets, base64url without padding: 43 characters, 256 bits.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
