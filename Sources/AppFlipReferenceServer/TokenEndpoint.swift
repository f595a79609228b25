import AppFlipDigest
import AppFlipHTTP
import AppFlipReference
import Foundation

/// `POST /oauth/token` (RFC 6749 §4.1.3, §6; RFC 7636 §4.6): the authorization-code and refresh-token grants.
struct TokenEndpoint {
    let configuration: ReferenceServerConfiguration
    let state: OAuthState

    static let defined = ["grant_type", "code", "redirect_uri", "client_id", "client_secret", "code_verifier", "refresh_token", "scope"]

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        let form: RequestParameters
        switch FormEndpoint.form(request, endpoint: "token") {
        case .failure(let rejection): return rejection.response
        case .success(let parameters): form = parameters
        }
        if request.query.map({ !$0.isEmpty }) ?? false {
            return TokenResponses.error(400, "invalid_request", "Parameters belong in the body, not the query")
        }
        if !form.repeated(among: Self.defined).isEmpty {
            return TokenResponses.error(400, "invalid_request", "A parameter was sent more than once")
        }
        let clientID: String
        switch ClientAuthentication.authenticate(request, form, configuration: configuration, state: state) {
        case .failed(let response): return response
        case .authenticated(let id): clientID = id
        }
        switch form.single("grant_type") {
        case .value("authorization_code"): return codeGrant(form, clientID: clientID)
        case .value("refresh_token"): return refreshGrant(form, clientID: clientID)
        case .value: return TokenResponses.error(400, "unsupported_grant_type", "Only authorization_code and refresh_token")
        default: return TokenResponses.error(400, "invalid_request", "grant_type is required")
        }
    }

    private func codeGrant(_ form: RequestParameters, clientID: String) -> HTTPResponse {
        guard let value = form.text("code") else { return TokenResponses.error(400, "invalid_request", "code is required") }
        guard let code = state.redeem(value) else { return TokenResponses.error(400, "invalid_grant", "Unknown code") }
        if code.used {
            // A replayed code: refuse it and revoke what it issued (RFC 6749 §4.1.2).
            state.revokeTokens(of: value)
            return TokenResponses.error(400, "invalid_grant", "The code was already used")
        }
        guard code.expires > Date() else { return TokenResponses.error(400, "invalid_grant", "The code expired") }
        guard code.clientID == clientID else { return TokenResponses.error(400, "invalid_grant", "The code belongs to another client") }
        guard form.text("redirect_uri") == code.redirectURI else {
            return TokenResponses.error(400, "invalid_grant", "redirect_uri does not match the authorization request")
        }
        let verifier = form.text("code_verifier")
        if let challenge = code.challenge {
            guard let verifier else { return TokenResponses.error(400, "invalid_grant", "code_verifier is required") }
            let computed = code.method == "S256" ? Base64URL.encode(SHA256.hash(Array(verifier.utf8))) : verifier
            // RFC 7636 §4.1: 43 to 128 unreserved characters, whatever the challenge.
            guard (43...128).contains(verifier.utf8.count), verifier.utf8.allSatisfy(AuthorizationEndpoint.isUnreserved), computed == challenge else {
                return TokenResponses.error(400, "invalid_grant", "code_verifier does not match")
            }
        } else if verifier != nil {
            // RFC 9700 §4.8.2: a verifier for a code issued without a challenge is a downgrade attempt.
            return TokenResponses.error(400, "invalid_grant", "No code_challenge was bound to this code")
        }
        let tokens = state.issueTokens(clientID: clientID, scope: code.scope, user: code.user, lifetime: configuration.tokenLifetime)
        state.attach(tokens: [tokens.access, tokens.refresh], toCode: value)
        return TokenResponses.json(
            200,
            [
                "access_token": tokens.access, "token_type": "Bearer", "expires_in": Int(configuration.tokenLifetime),
                "refresh_token": tokens.refresh, "scope": code.scope,
            ])
    }

    private func refreshGrant(_ form: RequestParameters, clientID: String) -> HTTPResponse {
        guard let value = form.text("refresh_token") else { return TokenResponses.error(400, "invalid_request", "refresh_token is required") }
        guard let token = state.token(value), token.isRefresh, !token.revoked, token.clientID == clientID else {
            return TokenResponses.error(400, "invalid_grant", "The refresh token is invalid")
        }
        if let scope = form.text("scope") {
            let granted = Set(token.scope.split(separator: " "))
            guard Set(scope.split(separator: " ")).isSubset(of: granted) else {
                return TokenResponses.error(400, "invalid_scope", "A refresh cannot widen the scope")
            }
        }
        if clientID == ReferenceServerConfiguration.nativeClientID {
            // A public client's refresh token rotates, with replay detection (RFC 9700 §2.2.2, §4.14.2).
            guard let rotated = state.rotate(value, lifetime: configuration.tokenLifetime) else {
                return TokenResponses.error(400, "invalid_grant", "The refresh token was already used; its family is revoked")
            }
            return TokenResponses.json(
                200,
                [
                    "access_token": rotated.access, "token_type": "Bearer", "expires_in": Int(configuration.tokenLifetime),
                    "refresh_token": rotated.refresh, "scope": token.scope,
                ])
        }
        let tokens = state.issueTokens(
            clientID: clientID, scope: token.scope, user: token.user, lifetime: configuration.tokenLifetime, refresh: value)
        return TokenResponses.json(
            200, ["access_token": tokens.access, "token_type": "Bearer", "expires_in": Int(configuration.tokenLifetime), "scope": token.scope])
    }
}
