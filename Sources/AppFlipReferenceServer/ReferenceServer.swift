import AppFlipHTTP
import AppFlipReference
import Foundation

/// The reference server: every endpoint a partner implements, correct, with in-memory state.
///
/// | Path | What |
/// | --- | --- |
/// | `GET /oauth/authorize` | authorization endpoint (test hook: cookie `reference-user=approver`, `second`, `refuser` or `disabled`; otherwise a real sign-in form, then a consent form) |
/// | `POST /login`, `POST /oauth/consent` | the sign-in and consent forms (anti-forgery tokens; users `approver`, `second`, `refuser`, `disabled`, password `<user>-password`) |
/// | `POST /oauth/token` | token endpoint: authorization_code (PKCE S256/plain) and refresh_token |
/// | `POST /oauth/revoke` | revocation (RFC 7009) |
/// | `GET /.well-known/apple-app-site-association` | the site association for the App Flip link path |
/// | `GET /api/userinfo` | a protected API: 200 for a valid Bearer access token, 401 otherwise |
/// | `GET /.well-known/oauth-authorization-server` | metadata (RFC 8414) advertising iss in authorization responses (RFC 9207) |
/// | `POST /link-handler` | the link-handler adapter contract over HTTP; its codes redeem at `/oauth/token` |
/// | `POST /reference/flip-code` | mints a flip code (form `redirect_uri`, `scope`) for a reference handler in another process |
package final class ReferenceServer: Sendable {
    package static let linkHandlerPath = "/link-handler"
    package static let mintPath = "/reference/flip-code"
    package static let apiPath = "/api/userinfo"
    package static let metadataPath = "/.well-known/oauth-authorization-server"

    package let configuration: ReferenceServerConfiguration
    private let state = OAuthState()

    package init(configuration: ReferenceServerConfiguration) {
        self.configuration = configuration
    }

    /// The link handler whose codes this server will redeem.
    package var linkHandler: LinkHandler {
        var handler = LinkHandler(clientID: configuration.clientID)
        let state = self.state
        let clientID = configuration.clientID
        let lifetime = configuration.codeLifetime
        handler.mintCode = { redirectURI, scope in
            state.storeCode(
                OAuthState.IssuedCode(
                    clientID: clientID, redirectURI: redirectURI, scope: scope ?? "devices", challenge: nil,
                    method: nil, expires: Date().addingTimeInterval(lifetime)))
        }
        return handler
    }

    /// Routes one request.
    package var handler: HTTPServer.Handler {
        let authorization = AuthorizationEndpoint(configuration: configuration, state: state)
        let token = TokenEndpoint(configuration: configuration, state: state)
        let revocation = RevocationEndpoint(configuration: configuration, state: state)
        let siteAssociation = SiteAssociationEndpoint(configuration: configuration)
        let api = APIEndpoint(state: state)
        let linkHandler = self.linkHandler
        let strictTransport = ReferenceServer.strictTransport
        return { request in
            switch request.path {
            case "/oauth/authorize": return strictTransport(authorization.handle(request))
            case "/login": return strictTransport(authorization.signIn.login(request))
            case "/oauth/consent": return strictTransport(authorization.signIn.consent(request, endpoint: authorization))
            case "/oauth/token": return token.handle(request)
            case "/oauth/revoke": return revocation.handle(request)
            case "/.well-known/apple-app-site-association": return siteAssociation.handle(request)
            case ReferenceServer.apiPath: return api.handle(request)
            case ReferenceServer.metadataPath: return AuthorizationEndpoint.metadata(request)
            case ReferenceServer.linkHandlerPath: return ReferenceServer.linkHandlerResponse(request, linkHandler)
            case ReferenceServer.mintPath:
                let form = RequestParameters(Substring(String(decoding: request.body, as: UTF8.self)))
                guard request.method == "POST", let redirectURI = form.text("redirect_uri") else {
                    return HTTPResponse(status: 400, body: Array("POST redirect_uri (and scope)\n".utf8))
                }
                return HTTPResponse(
                    status: 200, headers: HTTPHeaders([("Content-Type", "text/plain")]),
                    body: Array(linkHandler.mintCode(redirectURI, form.text("scope")).utf8))
            default:
                return HTTPResponse(
                    status: 404, headers: HTTPHeaders([("Content-Type", "text/plain; charset=utf-8")]),
                    body: Array("not found\n".utf8))
            }
        }
    }

    /// The pages users see keep browsers on https for a year (RFC 6797); a browser ignores the header over http.
    static let strictTransportSecurity = "max-age=31536000"

    private static func strictTransport(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers.append("Strict-Transport-Security", strictTransportSecurity)
        return response
    }

    static func linkHandlerResponse(_ request: HTTPRequest, _ linkHandler: LinkHandler) -> HTTPResponse {
        guard request.method == "POST" else {
            return HTTPResponse(status: 405, headers: HTTPHeaders([("Allow", "POST")]))
        }
        guard let answer = AdapterLoop.answer(to: String(decoding: request.body, as: UTF8.self), linkHandler) else {
            return HTTPResponse(
                status: 400, headers: HTTPHeaders([("Content-Type", "text/plain; charset=utf-8")]),
                body: Array("expected a JSON object with string id, link and scenario\n".utf8))
        }
        return HTTPResponse(
            status: 200, headers: HTTPHeaders([("Content-Type", "application/json"), ("Cache-Control", "no-store")]),
            body: [UInt8](answer))
    }
}
