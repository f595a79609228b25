import AppFlipHTTP
import Foundation

/// Client authentication at the token and revocation endpoints (RFC 6749 §2.3.1): HTTP Basic or the form body,
/// never both in one request.
enum ClientAuthentication {
    enum Outcome {
        case authenticated(clientID: String)
        case failed(HTTPResponse)
    }

    /// Authenticates the client; a client ID with many recent failures is refused with 429 and Retry-After until
    /// the window passes, its right secret included (brute-force protection, RFC 6749 §2.3.1).
    static func authenticate(
        _ request: HTTPRequest, _ form: RequestParameters, configuration: ReferenceServerConfiguration,
        state: OAuthState
    ) -> Outcome {
        let presented = presentedClientID(request, form)
        if let presented, let seconds = state.throttled(presented) {
            var response = TokenResponses.error(429, "invalid_client", "Too many failed attempts; try again later")
            response.headers.append("Retry-After", String(seconds))
            return .failed(response)
        }
        let outcome = check(request, form, configuration: configuration)
        if case .failed(let response) = outcome, response.status == 401, let presented { state.recordFailedAuthentication(presented) }
        return outcome
    }

    /// The client ID a request claims, from Basic or the form.
    private static func presentedClientID(_ request: HTTPRequest, _ form: RequestParameters) -> String? {
        if let header = request.headers["Authorization"], header.lowercased().hasPrefix("basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)).flatMap({
                String(data: $0, encoding: .utf8)
            }),
            let colon = decoded.firstIndex(of: ":")
        {
            return AppFlipReferenceDecoding.decode(decoded[..<colon])
        }
        if case .value(let id) = form.single("client_id") { return id }
        return nil
    }

    private static func check(_ request: HTTPRequest, _ form: RequestParameters, configuration: ReferenceServerConfiguration) -> Outcome {
        let basic = request.headers["Authorization"].flatMap { header -> String? in
            header.lowercased().hasPrefix("basic ") ? String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces) : nil
        }
        let bodySecret = form.single("client_secret")
        let bodyHasSecret: Bool
        if case .missing = bodySecret { bodyHasSecret = false } else { bodyHasSecret = true }
        if basic != nil, bodyHasSecret {
            return .failed(TokenResponses.error(400, "invalid_request", "Use one client authentication method per request"))
        }
        if let basic {
            guard let decoded = Data(base64Encoded: basic).flatMap({ String(data: $0, encoding: .utf8) }),
                let colon = decoded.firstIndex(of: ":"),
                let id = AppFlipReferenceDecoding.decode(decoded[..<colon]),
                let secret = AppFlipReferenceDecoding.decode(decoded[decoded.index(after: colon)...]),
                configuration.clientSecrets[id] == secret
            else {
                var response = TokenResponses.error(401, "invalid_client", "Client authentication failed")
                response.headers.append("WWW-Authenticate", "Basic realm=\"appflip-reference\"")
                return .failed(response)
            }
            return .authenticated(clientID: id)
        }
        // A public client identifies itself without a secret (RFC 6749 §2.3, RFC 8252 §8.4); it must prove
        // possession with PKCE instead, which the token endpoint enforces.
        if case .value(let id) = form.single("client_id"), id == ReferenceServerConfiguration.nativeClientID, !bodyHasSecret {
            return .authenticated(clientID: id)
        }
        guard case .value(let id) = form.single("client_id"), case .value(let secret) = bodySecret,
            configuration.clientSecrets[id] == secret
        else {
            return .failed(TokenResponses.error(401, "invalid_client", "Client authentication failed"))
        }
        return .authenticated(clientID: id)
    }
}
