import AppFlipBase
import AppFlipDigest
import AppFlipHTTP
import AppFlipModel
import AppFlipSystem
import AppFlipTLS
import Foundation

/// The suite's own authorization server for the native-client profile: endpoints like Google's on loopback
/// (authorization, token, revocation, discovery metadata) that answer as the case scripts, and record every request
/// they receive, which is what the checks judge. Codes are single-use and bound to the client, but the verifier and
/// the repeated redirect URI are recorded, not enforced: a strict server would refuse the exchange, and every later
/// step would then fail under requirements the app did not break. Each defect is blamed by the check that judges it
/// (`pkce: verified`, `redirect_uri: repeated`).
package final class TestAuthorizationServer: Sendable {
    package typealias Script = NativeServerScript
    package typealias Certificate = NativeServerScript.TokenCertificate

    private struct Issued {
        var clientID: String
    }

    /// Where a scripted 307 sends the token request: on this server, so a client that follows it is seen.
    package static let movedTokenPath = "/moved/token"
    /// Where the discovery document is, as at Google (`https://accounts.google.com/.well-known/openid-configuration`).
    package static let discoveryPath = "/.well-known/openid-configuration"

    package let clientID: String
    /// The client secret the app is configured with, drawn per server: Google issues one to installed-app clients
    /// (it is not confidential there), and its libraries send it, by HTTP Basic or in the body; an app may also
    /// send none, as a public client.
    package let clientSecret: String = TestAuthorizationServer.token("secret")
    private let server: HTTPServer
    /// What the endpoints, the steps and the runner share of one case.
    private struct State {
        var recorded: [NativeServerRequest] = []
        var script = Script()
        var codes: [String: Issued] = [:]
        var refreshTokens: Set<String> = []
        var refreshOrder: [String] = []
        var handedOut: [String] = []
        /// Why the server refused the app's code exchanges (what the app sent, not a scripted answer), in order.
        var refusals: [String] = []
        var accessTokensIssued = 0
        /// Requests past `maximumRequests`, answered 429 and not recorded.
        var overflow = 0
        /// The https listeners of the token and revocation endpoints, one for each certificate a step asked for, all
        /// answered by this server; made when first asked for, with the CA the app is given.
        var secure: [Certificate: HTTPServer] = [:]
        var authority: CertificateAuthority?
        /// The CA's certificate written for the app (`ca_file`), removed when the server stops.
        var caFile: String?
    }

    private let state = Locked(State())

    /// What an app may drive of this server in one case: requests far larger or more numerous than any sign-in, and
    /// connections held open, are refused, so the app's misbehaviour costs the suite bounded memory and time.
    package static let limits = HTTPLimits(maximumHeadBytes: 16 * 1024, maximumHeaderCount: 100, maximumBodyBytes: 64 * 1024)
    /// No idle connection is closed to make room: an app that crowds this server out is the case's finding (its
    /// error), and whether the browser came before or after a connection had idled long enough must not decide it.
    package static let capacity = HTTPServer.Capacity(maximumConnections: 16, idleTimeout: 2, evictableAfter: .infinity)
    /// Requests recorded (and answered) in one case; past it each is answered 429 and only counted.
    package static let maximumRequests = 1_000
    /// The header by which the suite's own browser request is known (its value is drawn per server, so an app
    /// cannot claim it).
    package static let browserHeader = "X-AppFlip-Browser"
    package let browserMarker = TestAuthorizationServer.token("browser")

    package init(clientID: String) throws {
        self.clientID = clientID
        let box = HandlerBox()
        self.box = box
        server = try HTTPServer(host: "127.0.0.1", port: 0, limits: Self.limits, capacity: Self.capacity) { request in
            box.server?.answer(request, over: nil) ?? HTTPResponse(status: 503)
        }
        box.set(self)
        server.start()
    }

    private let box: HandlerBox

    package func stop() {
        server.stop()
        let (listeners, file) = state.withLock { (Array($0.secure.values), $0.caFile) }
        for listener in listeners { listener.stop() }
        if let file { try? FileManager.default.removeItem(atPath: file) }
    }

    package var origin: String { "http://127.0.0.1:\(server.port)" }
    package var authorizationEndpoint: String { origin + "/authorize" }

    /// Where the token and revocation endpoints are for the current script: on this origin, or over https with the
    /// certificate it names.
    private var tokenOrigin: String {
        state.withLock { state in state.script.tokenCertificate.flatMap { state.secure[$0] }.map { "https://127.0.0.1:\($0.port)" } } ?? origin
    }

    package func configuration(scopes: [String], redirectURI: String?) -> NativeCommand.Configuration {
        let tokenOrigin = tokenOrigin
        var configuration = NativeCommand.Configuration(
            authorizationEndpoint: authorizationEndpoint, tokenEndpoint: tokenOrigin + "/token",
            revocationEndpoint: tokenOrigin + "/revoke", clientID: clientID, scopes: scopes,
            redirectURI: redirectURI)
        configuration.issuer = origin
        configuration.clientSecret = clientSecret
        configuration.discoveryURL = origin + Self.discoveryPath
        if tokenOrigin != origin {
            (configuration.caFile, configuration.caPEM) = state.withLock { ($0.caFile, $0.authority?.pem) }
        }
        return configuration
    }

    /// Why a certificate cannot be presented: this build has no TLS server, or OpenSSL or the disk refused.
    package struct CertificateFailure: Error, Sendable {
        package var message: String
        /// Set when this build cannot serve TLS at all (it speaks TLS through OpenSSL on Linux only).
        package var unsupported = false
    }

    /// Makes ready the https listener that presents `certificate` (and, the first time, the CA the app is given,
    /// written to a file for `ca_file`). The trusted certificate and the expired one come from that CA for
    /// 127.0.0.1; the wrong-host one from it for another name; the other CA's is made by a CA made for it alone.
    package func prepare(_ certificate: Certificate) throws(CertificateFailure) {
        guard TLSTrust.isAvailable else {
            throw CertificateFailure(
                message: "this build cannot present a certificate to the app: the suite serves TLS through OpenSSL, "
                    + "linked on Linux only", unsupported: true)
        }
        if state.withLock({ $0.secure[certificate] != nil }) { return }
        do throws(SocketError) {
            let made: CertificateAuthority
            if let known = state.withLock({ $0.authority }) {
                made = known
            } else {
                made = try CertificateAuthority(name: "AppFlip Conformance native-client test CA")
                state.withLock { $0.authority = made }
            }
            let authority = made
            if state.withLock({ $0.caFile == nil }) {
                let path = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-native-ca-\(UUID().uuidString).pem").path
                guard FileManager.default.createFile(atPath: path, contents: Data(authority.pem.utf8), attributes: [.posixPermissions: 0o644]) else {
                    throw SocketError(.tls, "the CA's certificate could not be written to \(path)")
                }
                state.withLock { $0.caFile = path }
            }
            let identity = try authority.serverIdentity(
                for: certificate == .wrongHost ? [Certificate.otherHostName] : ["127.0.0.1"],
                flaw: certificate == .expired ? .expired : certificate == .otherCA ? .untrustedIssuer : .none)
            let box = self.box
            let listener = try HTTPServer(host: "127.0.0.1", port: 0, limits: Self.limits, capacity: Self.capacity, tls: identity) { request in
                box.server?.answer(request, over: certificate) ?? HTTPResponse(status: 503)
            }
            listener.start()
            state.withLock { $0.secure[certificate] = listener }
        } catch {
            throw CertificateFailure(message: "the suite cannot present the \(certificate.rawValue) certificate: \(error.message)")
        }
    }

    /// How many TLS handshakes with the listener presenting `certificate` completed so far.
    package func completedHandshakes(_ certificate: Certificate) -> Int {
        state.withLock { $0.secure[certificate] }?.refusalsSettled(timeout: 5).completedHandshakes ?? 0
    }

    /// The TLS handshakes with the listener presenting `certificate` that did not complete so far (those under way
    /// waited for), with OpenSSL's reasons (the first few), and how many.
    package func failedHandshakes(_ certificate: Certificate) -> (reasons: [String], count: Int) {
        guard let listener = state.withLock({ $0.secure[certificate] }) else { return ([], 0) }
        // The app may answer before this server has read the alert that ended a handshake: wait for the handshakes
        // under way to conclude (milliseconds; bounded by the handshake's own deadline).
        let refusals = listener.refusalsSettled(timeout: 5)
        // OpenSSL's reason alone ("tlsv1 alert unknown ca": the client's alert), without the server's preamble.
        let reasons = refusals.handshakes.map { message in
            message.range(of: "failed: ").map { String(message[$0.upperBound...]) } ?? message
        }
        return (reasons, refusals.failedHandshakes)
    }

    /// The issuer a mix-up response names instead of this server's.
    package static let otherIssuer = "https://other-authorization-server.example"

    /// A code the token endpoint will redeem once, as if this server had issued it in a response.
    package func mintCode() -> String {
        let code = Self.token("code")
        state.withLock { state in
            state.codes[code] = Issued(clientID: clientID)
            state.handedOut.append(code)
        }
        return code
    }

    /// Sets what the endpoints answer from now on.
    package func use(_ script: Script) { state.withLock { $0.script = script } }

    /// Every request received so far, in order.
    package var requests: [NativeServerRequest] { state.withLock { $0.recorded } }

    /// What the server refused of the app so far, in one sentence for the evidence; nil when nothing.
    package var refusedTraffic: String? {
        let refusals = listenerRefusals
        var parts: [String] = []
        let over = state.withLock { $0.overflow }
        if over > 0 { parts.append("\(over) requests past the limit of \(Self.maximumRequests) a case (answered 429)") }
        if !refusals.requests.isEmpty {
            parts.append("\(refusals.requests.count) request\(refusals.requests.count == 1 ? "" : "s") refused for a limit (\(refusals.requests[0]))")
        }
        if refusals.busy > 0 {
            parts.append(
                "\(refusals.busy) connection\(refusals.busy == 1 ? "" : "s") refused while \(Self.capacity.maximumConnections) were open (answered 503)"
            )
        }
        if refusals.idle > 0 {
            parts.append("\(refusals.idle) idle connection\(refusals.idle == 1 ? "" : "s") closed after \(Int(Self.capacity.idleTimeout)) s")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// Why the case cannot be judged on what the app did: it sent more, or larger, requests than any sign-in needs,
    /// and the server refused them (so a later exchange may be missing for that reason alone); nil otherwise.
    package var overwhelmed: String? {
        let over = state.withLock { $0.overflow }
        let refusedRequests = listenerRefusals.requests
        guard over > 0 || !refusedRequests.isEmpty else { return nil }
        return "the app sent the test authorization server more than any sign-in needs: " + (refusedTraffic ?? "")
    }

    /// What every listener of this server (plain and https) refused so far, together.
    private var listenerRefusals: HTTPServer.Refusals {
        var total = server.refusals
        for listener in state.withLock({ Array($0.secure.values) }) {
            let refusals = listener.refusals
            total.busy += refusals.busy
            total.idle += refusals.idle
            total.requests += refusals.requests
        }
        return total
    }

    /// Connections refused so far because the app held the server's connections open.
    package var busyRefusals: Int { server.refusals.busy }

    /// Every refresh token issued so far, in order (the last is the one a client must use next).
    package var issuedRefreshTokens: [String] { state.withLock { $0.refreshOrder } }

    /// Every code and token this server handed out: secrets the app may echo (in its log, raw, base64 or hex).
    package var handedOutSecrets: [String] { [clientSecret] + state.withLock { $0.handedOut } }

    // MARK: Endpoints

    private func answer(_ request: HTTPRequest, over certificate: Certificate?) -> HTTPResponse {
        var record = NativeServerRequest(
            method: request.method, target: request.target, body: request.body,
            contentType: request.headers["Content-Type"], authorization: request.headers["Authorization"])
        record.certificate = certificate
        // The suite's own browser is always let in: only the app's requests count against the limit.
        let fromBrowser = request.headers[Self.browserHeader] == browserMarker
        let admitted = state.withLock { state -> Script? in
            guard state.recorded.count < Self.maximumRequests || fromBrowser else {
                state.overflow += 1
                return nil
            }
            state.recorded.append(record)
            return state.script
        }
        guard let script = admitted else {
            return HTTPResponse(
                status: 429, headers: HTTPHeaders([("Connection", "close")]),
                body: Array("more than \(Self.maximumRequests) requests in one case\n".utf8))
        }
        switch (request.method, record.path) {
        case ("GET", "/authorize"): return authorize(record, script.authorization)
        case ("POST", "/token"):
            let response = token(record, script)
            // Slow only after the code is redeemed: a client that gives up and sends the code again is seen doing so.
            if script.tokenDelay > 0 { Thread.sleep(forTimeInterval: script.tokenDelay) }
            return response
        case ("POST", "/revoke"): return HTTPResponse(status: 200)
        case ("GET", Self.discoveryPath):
            let tokenOrigin = tokenOrigin
            return json(
                200,
                [
                    "issuer": origin, "authorization_endpoint": authorizationEndpoint, "token_endpoint": tokenOrigin + "/token",
                    "revocation_endpoint": tokenOrigin + "/revoke",
                    "code_challenge_methods_supported": script.metadata == .plainOnly ? ["plain"] : ["S256", "plain"],
                    "authorization_response_iss_parameter_supported": true,
                    "response_types_supported": ["code"],
                ])
        default: return HTTPResponse(status: 404)
        }
    }

    private func authorize(_ request: NativeServerRequest, _ answer: Script.AuthorizationAnswer) -> HTTPResponse {
        let parameters = URLParts(request.target).parameters
        guard let redirectURI = parameters.singleText(named: "redirect_uri"), parameters.singleText(named: "client_id") == clientID else {
            // Google shows an error page and redirects nowhere when the client or its redirect URI is wrong.
            return HTTPResponse(status: 400, body: Array("invalid_request: client_id and redirect_uri are required".utf8))
        }
        let state = parameters.singleText(named: "state")
        var result: [(String, String)] = []
        switch answer {
        case .error(let error):
            result.append(("error", error))
        case .code, .wrongState, .missingState, .wrongIssuer:
            result.append(("code", mintCode()))
        }
        switch answer {
        case .wrongState: result.append(("state", (state ?? "") + "-altered"))
        case .missingState: break
        default: if let state { result.append(("state", state)) }
        }
        // Every response names its issuer (RFC 9207 §2), as Google's do; a mix-up names another.
        result.append(("iss", answer == .wrongIssuer ? Self.otherIssuer : origin))
        let query = result.map { "\($0.0)=" + FormEncoding.encode($0.1) }.joined(separator: "&")
        let location = redirectURI + (redirectURI.contains("?") ? "&" : "?") + query
        return HTTPResponse(status: 302, headers: HTTPHeaders([("Location", location)]))
    }

    private func token(_ request: NativeServerRequest, _ script: Script) -> HTTPResponse {
        let form = request.form
        switch form.singleText(named: "grant_type") {
        case "authorization_code":
            // The client as a real server reads it (RFC 6749 §2.3.1, §4.1.3): HTTP Basic, or client_id (with or
            // without client_secret) in the body; both ways of authenticating at once is invalid_request.
            let identity = request.clientIdentity
            if case .conflicting(let why) = identity { return refuse(400, "invalid_request", because: why) }
            // An empty secret (HTTP Basic with an empty password) is no secret: a public client naming itself, as
            // client_id alone in the body is (NAT-TOK-001's decision).
            if let secret = identity.secret, !secret.isEmpty, secret != clientSecret {
                return refuse(401, "invalid_client", because: "a client secret other than the configured one")
            }
            guard let code = form.singleText(named: "code"), let issued = state.withLock({ $0.codes.removeValue(forKey: code) }) else {
                return refuse(400, "invalid_grant", because: "a code this server did not issue, or one already redeemed")
            }
            guard identity.clientID == issued.clientID else {
                return refuse(400, "invalid_grant", because: identity.clientID == nil ? "no client named" : "another client than the code's")
            }
            return tokens(script.token, rotating: true)
        case "refresh_token":
            guard let presented = form.singleText(named: "refresh_token"), state.withLock({ $0.refreshTokens.contains(presented) }) else {
                return json(400, ["error": "invalid_grant"])
            }
            if script.rotateRefreshTokens { _ = state.withLock { $0.refreshTokens.remove(presented) } }
            return tokens(script.refresh, rotating: script.rotateRefreshTokens)
        default:
            return json(400, ["error": "unsupported_grant_type"])
        }
    }

    /// A refusal of the app's code exchange, remembered with its reason.
    private func refuse(_ status: Int, _ error: String, because reason: String) -> HTTPResponse {
        state.withLock { $0.refusals.append("\(status) \(error): \(reason)") }
        return json(status, ["error": error])
    }

    /// Why the app holds no token: the first refusal of its code exchange, while no access token was issued.
    package var refusedExchange: String? {
        state.withLock { $0.accessTokensIssued == 0 ? $0.refusals.first : nil }
    }

    private func tokens(_ answer: Script.TokenAnswer, rotating: Bool) -> HTTPResponse {
        let access = Self.token("access")
        state.withLock { state in
            state.handedOut.append(access)
            state.accessTokensIssued += 1
        }
        var body: [String: Any] = ["access_token": access, "token_type": "Bearer", "expires_in": 3599, "scope": "openid email"]
        if rotating {
            let refresh = Self.token("refresh")
            state.withLock { state in
                state.refreshTokens.insert(refresh)
                state.refreshOrder.append(refresh)
                state.handedOut.append(refresh)
            }
            body["refresh_token"] = refresh
        }
        switch answer {
        case .bearer: break
        case .unknownMembers:
            body["x_partner_hint"] = ["nested": [1, 2, 3]]
            body["refresh_token_expires_in"] = 604_800
        case .tokenType(let type): body["token_type"] = type
        case .invalidGrant: return json(400, ["error": "invalid_grant"])
        case .redirect: return HTTPResponse(status: 307, headers: HTTPHeaders([("Location", origin + Self.movedTokenPath)]))
        }
        return json(200, body)
    }

    private func json(_ status: Int, _ object: [String: Any]) -> HTTPResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return HTTPResponse(
            status: status, headers: HTTPHeaders([("Content-Type", "application/json"), ("Cache-Control", "no-store")]),
            body: [UInt8](data))
    }

    private static func token(_ kind: String) -> String {
        var generator = SystemRandomNumberGenerator()
        return kind + "-" + Base64URL.encode((0..<24).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}

/// Lets the server's handler reach the object that owns the server (built after it), without keeping it alive.
private final class HandlerBox: Sendable {
    private struct Weak: Sendable {
        weak var server: TestAuthorizationServer?
    }

    private let reference = Locked(Weak())

    var server: TestAuthorizationServer? { reference.withLock { $0.server } }

    func set(_ server: TestAuthorizationServer) { reference.withLock { $0.server = server } }
}
