import AppFlipReference

/// What the reference server is set up with: its client, secret, project and app, and the test users.
///
/// Scenario decorations (documented in Documentation/AdapterContracts.md, "The reference server"): the cookie `reference-user` logs in a test user —
/// `approver` and `second` approve consent, `refuser` refuses it, `disabled` owns a disabled account. Without it, the
/// authorization endpoint shows its sign-in page and redirects nowhere.
package struct ReferenceServerConfiguration: Sendable {
    package var clientID: String
    package var clientSecret: String
    package var projectID: String
    package var appID: String
    /// The App Flip link path the site association covers.
    package var linkPath: String
    /// Seconds an authorization code stays redeemable (RFC 6749 §4.1.2 recommends at most 600).
    package var codeLifetime: Double
    /// Seconds an access token works at the API; the token response's expires_in.
    package var tokenLifetime: Double

    package init(
        clientID: String = "google-client", clientSecret: String, projectID: String = "reference-project",
        appID: String = "ABCDE12345.com.example.reference", linkPath: String = "/flip", codeLifetime: Double = 600,
        tokenLifetime: Double = 3600
    ) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.projectID = projectID
        self.appID = appID
        self.linkPath = linkPath
        self.codeLifetime = codeLifetime
        self.tokenLifetime = tokenLifetime
    }

    /// Google's browser-linking redirect URIs for the project, production and sandbox.
    package var webRedirectURIs: Set<String> {
        ["https://oauth-redirect.googleusercontent.com/r/\(projectID)", "https://oauth-redirect-sandbox.googleusercontent.com/r/\(projectID)"]
    }

    /// Every redirect URI registered for Google's client: the web ones and the twelve App Flip URIs.
    package var registeredRedirectURIs: Set<String> { webRedirectURIs.union(LinkHandlerURIs.all) }

    /// The cookie each scenario's test user sends.
    package static let userCookie = "reference-user"

    /// A second registered client, so a run can check that a code redeems only for the client it was issued to.
    /// Scopes the server never grants to a client: a request naming them is narrowed (RFC 6749 §3.3).
    package static let withheldScopes: Set<String> = ["admin"]
    /// The narrowing the reference target declares: `devices admin` requested, `devices` granted.
    package static let narrowedScope = (request: "devices admin", granted: "devices")
    package static let secondClientID = "other-client"
    package static let secondClientSecret = "other-client-secret"

    /// A public native client (RFC 8252): no secret, PKCE required, a loopback redirect URI that takes any port
    /// and a private-use-scheme redirect URI.
    package static let nativeClientID = "native-app"
    package static let nativeRedirectURIs = ["http://127.0.0.1/callback", "com.example.reference:/oauth2redirect"]

    /// Whether `uri` is a registered redirect URI of the native client: exactly, or a loopback IP literal with any
    /// port (RFC 8252 §7.3, §8.4).
    static func nativeRedirectMatches(_ uri: String) -> Bool {
        if nativeRedirectURIs.contains(uri) { return true }
        for registered in nativeRedirectURIs {
            for host in ["http://127.0.0.1", "http://[::1]"] where registered.hasPrefix(host + "/") && uri.hasPrefix(host + ":") {
                let rest = uri.dropFirst(host.count + 1)
                let port = rest.prefix { $0.isASCII && $0.isNumber }
                if !port.isEmpty, port.count <= 5, (Int(port) ?? 0) > 0, (Int(port) ?? 0) < 65536,
                    rest.dropFirst(port.count) == registered.dropFirst(host.count)
                {
                    return true
                }
            }
        }
        return false
    }

    /// The secret of each registered client.
    var clientSecrets: [String: String] { [clientID: clientSecret, Self.secondClientID: Self.secondClientSecret] }
}

/// The twelve App Flip URIs, as the reference link handler knows them.
enum LinkHandlerURIs {
    static let all: Set<String> = LinkHandler.allowedRedirectURIs
}
