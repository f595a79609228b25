import AppFlipHTTP
import Foundation

/// `GET /api/userinfo`: the partner's protected API as a resource server sees it (RFC 6750): a valid, unrevoked,
/// unexpired access token gets 200 and the client, scope and user it was issued for; anything else gets 401 with a
/// Bearer challenge.
struct APIEndpoint {
    let state: OAuthState

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        let credentials = request.headers["Authorization"] ?? ""
        guard credentials.lowercased().hasPrefix("bearer ") else { return refuse("invalid_request", "A Bearer token is required") }
        let value = String(credentials.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        guard let token = state.token(value), !token.isRefresh, !token.revoked, token.expires.map({ $0 > Date() }) ?? false else {
            return refuse("invalid_token", "The access token is unknown, revoked or expired")
        }
        let body =
            (try? JSONSerialization.data(
                withJSONObject: ["client_id": token.clientID, "scope": token.scope, "user": token.user], options: [.sortedKeys]))
            .map { [UInt8]($0) } ?? []
        return HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/json"), ("Cache-Control", "no-store")]), body: body)
    }

    private func refuse(_ error: String, _ description: String) -> HTTPResponse {
        HTTPResponse(
            status: 401,
            headers: HTTPHeaders([
                ("WWW-Authenticate", "Bearer error=\"\(error)\", error_description=\"\(description)\""),
                ("Content-Type", "application/json"),
            ]),
            body: Array(#"{"error":"\#(error)"}"#.utf8))
    }
}
