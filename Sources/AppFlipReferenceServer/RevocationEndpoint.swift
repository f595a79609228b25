import AppFlipHTTP

/// `POST /oauth/revoke` (RFC 7009): revokes a token of the authenticated client; unknown tokens get 200 too.
struct RevocationEndpoint {
    let configuration: ReferenceServerConfiguration
    let state: OAuthState

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        let form: RequestParameters
        switch FormEndpoint.form(request, endpoint: "revocation") {
        case .failure(let rejection): return rejection.response
        case .success(let parameters): form = parameters
        }
        let clientID: String
        switch ClientAuthentication.authenticate(request, form, configuration: configuration, state: state) {
        case .failed(let response): return response
        case .authenticated(let id): clientID = id
        }
        guard let value = form.text("token") else { return TokenResponses.error(400, "invalid_request", "token is required") }
        if let token = state.token(value) {
            guard token.clientID == clientID else {
                return TokenResponses.error(400, "unauthorized_client", "The token was issued to another client")
            }
            state.revoke(value)
        }
        // RFC 7009 §2.2: 200 whether or not the token was known.
        return HTTPResponse(status: 200, headers: HTTPHeaders([("Cache-Control", "no-store")]))
    }
}
