import AppFlipDigest
import AppFlipHTTP
import AppFlipModel
import Foundation

/// The suite's own authorization server for the native-client profile: endpoints like Google's on loopback
/// (authorization, token, revocation, discovery metadata) that answer as the case scripts, and record every request
/// they receive, which is what the checks judge. It validates like a real server (single-use codes, PKCE, the same
/// redirect URI), so a client that gets those wrong is refused here as it would be there.
public final class TestAuthorizationServer: @unchecked Sendable {
    /// A request as received.
    public struct Recorded: Sendable, Hashable {
        public var method: String
        public var target: String
        public var headers: HTTPHeaders
        public var body: [UInt8]

        public var path: Substring { target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "" }
        /// The form body's parameters (token and revocation requests).
        public var form: [QueryParameter] { QueryParameter.parse(query: String(decoding: body, as: UTF8.self)) }
    }

    /// What the authorization endpoint answers.
    public enum AuthorizationAnswer: Sendable, Hashable {
        case code
        case wrongState
        case missingState
        case error(String)
    }

    /// What the token endpoint answers to a code or a refresh token it accepts.
    public enum TokenAnswer: Sendable, Hashable {
        case bearer
        /// Extra members no client knows, which it must ignore.
        case unknownMembers
        /// A `token_type` other than Bearer, which the client must not use.
        case tokenType(String)
        /// `invalid_grant`, as for a revoked refresh token.
        case invalidGrant
        /// A 307 to another host, which a client must not follow with the verifier.
        case redirect(String)
    }

    public struct Script: Sendable, Hashable {
        public var authorization: AuthorizationAnswer = .code
        public var token: TokenAnswer = .bearer
        public var refresh: TokenAnswer = .bearer
        /// Whether a refresh issues a new refresh token and retires the old one.
        public var rotateRefreshTokens = false

        public init() {}
    }

    private struct Issued {
        var clientID: String
        var redirectURI: String
        var challenge: String?
        var method: String?
    }

    public let clientID: String
    private let server: HTTPServer
    private let lock = NSLock()
    private var recorded: [Recorded] = []
    private var script = Script()
    private var codes: [String: Issued] = [:]
    private var refreshTokens: Set<String> = []

    public init(clientID: String) throws {
        self.clientID = clientID
        let box = HandlerBox()
        server = try HTTPServer(host: "127.0.0.1", port: 0) { request in box.server?.answer(request) ?? HTTPResponse(status: 503) }
        box.server = self
        server.start()
    }

    public func stop() { server.stop() }

    public var origin: String { "http://127.0.0.1:\(server.port)" }
    public var authorizationEndpoint: String { origin + "/authorize" }

    public func configuration(scopes: [String], redirectURI: String?) -> NativeCommand.Configuration {
        NativeCommand.Configuration(authorizationEndpoint: authorizationEndpoint, tokenEndpoint: origin + "/token",
                                    revocationEndpoint: origin + "/revoke", clientID: clientID, scopes: scopes, redirectURI: redirectURI)
    }

    /// Sets what the endpoints answer from now on.
    public func use(_ script: Script) { lock.withLock { self.script = script } }

    /// Every request received so far, in order.
    public var requests: [Recorded] { lock.withLock { recorded } }

    // MARK: Endpoints

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        let record = Recorded(method: request.method, target: request.target, headers: request.headers, body: request.body)
        let script = lock.withLock { () -> Script in
            recorded.append(record)
            return self.script
        }
        switch (request.method, record.path) {
        case ("GET", "/authorize"): return authorize(record, script.authorization)
        case ("POST", "/token"): return token(record, script)
        case ("POST", "/revoke"): return HTTPResponse(status: 200)
        case ("GET", "/.well-known/openid-configuration"):
            return json(200, ["issuer": origin, "authorization_endpoint": authorizationEndpoint, "token_endpoint": origin + "/token",
                              "revocation_endpoint": origin + "/revoke", "code_challenge_methods_supported": ["S256", "plain"],
                              "response_types_supported": ["code"]])
        default: return HTTPResponse(status: 404)
        }
    }

    private func value(_ name: String, _ parameters: [QueryParameter]) -> String? {
        let found = parameters.all(named: name)
        guard found.count == 1, let bytes = found[0].value else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    private func authorize(_ request: Recorded, _ answer: AuthorizationAnswer) -> HTTPResponse {
        let parameters = URLParts(request.target).parameters
        guard let redirectURI = value("redirect_uri", parameters), value("client_id", parameters) == clientID else {
            // Google shows an error page and redirects nowhere when the client or its redirect URI is wrong.
            return HTTPResponse(status: 400, body: Array("invalid_request: client_id and redirect_uri are required".utf8))
        }
        let state = value("state", parameters)
        var result: [(String, String)] = []
        switch answer {
        case .error(let error):
            result.append(("error", error))
        case .code, .wrongState, .missingState:
            let code = Self.token("code")
            lock.withLock {
                codes[code] = Issued(clientID: clientID, redirectURI: redirectURI, challenge: value("code_challenge", parameters),
                                     method: value("code_challenge_method", parameters))
            }
            result.append(("code", code))
        }
        switch answer {
        case .wrongState: result.append(("state", (state ?? "") + "-altered"))
        case .missingState: break
        default: if let state { result.append(("state", state)) }
        }
        let query = result.map { "\($0.0)=" + FormEncoding.encode($0.1) }.joined(separator: "&")
        let location = redirectURI + (redirectURI.contains("?") ? "&" : "?") + query
        return HTTPResponse(status: 302, headers: HTTPHeaders([("Location", location)]))
    }

    private func token(_ request: Recorded, _ script: Script) -> HTTPResponse {
        let form = request.form
        switch value("grant_type", form) {
        case "authorization_code":
            guard let code = value("code", form), let issued = lock.withLock({ codes.removeValue(forKey: code) }),
                  value("client_id", form) == issued.clientID, value("redirect_uri", form) == issued.redirectURI,
                  Self.verifies(value("code_verifier", form), issued) else {
                return json(400, ["error": "invalid_grant"])
            }
            return tokens(script.token, rotating: true)
        case "refresh_token":
            guard let presented = value("refresh_token", form), lock.withLock({ refreshTokens.contains(presented) }) else {
                return json(400, ["error": "invalid_grant"])
            }
            if script.rotateRefreshTokens { _ = lock.withLock { refreshTokens.remove(presented) } }
            return tokens(script.refresh, rotating: script.rotateRefreshTokens)
        default:
            return json(400, ["error": "unsupported_grant_type"])
        }
    }

    /// RFC 7636 §4.6: the verifier against the challenge the code was issued for.
    private static func verifies(_ verifier: String?, _ issued: Issued) -> Bool {
        guard let challenge = issued.challenge else { return verifier == nil }
        guard let verifier else { return false }
        switch issued.method ?? "plain" {
        case "S256": return PKCE.s256Challenge(for: verifier) == challenge
        case "plain": return verifier == challenge
        default: return false
        }
    }

    private func tokens(_ answer: TokenAnswer, rotating: Bool) -> HTTPResponse {
        var body: [String: Any] = ["access_token": Self.token("access"), "token_type": "Bearer", "expires_in": 3599, "scope": "openid email"]
        if rotating {
            let refresh = Self.token("refresh")
            _ = lock.withLock { refreshTokens.insert(refresh) }
            body["refresh_token"] = refresh
        }
        switch answer {
        case .bearer: break
        case .unknownMembers: body["x_partner_hint"] = ["nested": [1, 2, 3]]; body["refresh_token_expires_in"] = 604_800
        case .tokenType(let type): body["token_type"] = type
        case .invalidGrant: return json(400, ["error": "invalid_grant"])
        case .redirect(let location): return HTTPResponse(status: 307, headers: HTTPHeaders([("Location", location)]))
        }
        return json(200, body)
    }

    private func json(_ status: Int, _ object: [String: Any]) -> HTTPResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", "application/json"), ("Cache-Control", "no-store")]),
                            body: [UInt8](data))
    }

    private static func token(_ kind: String) -> String {
        var generator = SystemRandomNumberGenerator()
        return kind + "-" + Base64URL.encode((0..<24).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}

/// Lets the server's handler reach the object that owns the server (built after it).
private final class HandlerBox: @unchecked Sendable {
    weak var server: TestAuthorizationServer?
}
