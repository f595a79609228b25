import Foundation

/// One command of the native-client adapter contract (suite to app), as a JSON line with an opaque `id`.
package enum NativeCommand: Sendable, Hashable {
    /// Where the app signs in: the endpoints of the suite's test authorization server, the client and its scopes.
    package struct Configuration: Sendable, Hashable {
        package var authorizationEndpoint: String
        package var tokenEndpoint: String
        package var revocationEndpoint: String
        package var clientID: String
        package var scopes: [String]
        /// The private-use-scheme redirect URI to use, when the suite was given one; a loopback app picks its own.
        package var redirectURI: String?
        /// The server's issuer identifier; its authorization responses carry it as `iss` (RFC 9207).
        package var issuer: String?
        /// The server's discovery document (OpenID Connect Discovery / RFC 8414 metadata), for an app that reads its
        /// endpoints and PKCE methods from there rather than from the configuration.
        package var discoveryURL: String?
        /// The installed-app client secret the app may present (by HTTP Basic or in the body), as Google's client
        /// configuration for an installed app carries one.
        package var clientSecret: String?
        /// For a step whose token endpoint is https: the CA the app is to trust for it (its certificate, as a file and
        /// as PEM text), as an app is built to trust its server's CA. The system's store does not know this CA, so an
        /// app that trusts only that store refuses even the certificate it should accept.
        package var caFile: String?
        package var caPEM: String?

        package init(
            authorizationEndpoint: String, tokenEndpoint: String, revocationEndpoint: String, clientID: String,
            scopes: [String], redirectURI: String?
        ) {
            self.authorizationEndpoint = authorizationEndpoint
            self.tokenEndpoint = tokenEndpoint
            self.revocationEndpoint = revocationEndpoint
            self.clientID = clientID
            self.scopes = scopes
            self.redirectURI = redirectURI
        }
    }

    /// Start a sign-in: the app answers `open-browser` with its authorization request URL.
    case signIn(Configuration)
    /// The browser (the suite) hands the app the redirect to its private-use scheme or claimed https URI.
    case deliverRedirect(url: String)
    /// The suite is making the loopback GET itself: the app answers once its listener has the callback.
    case awaitRedirect
    case refresh
    case callAPI
    case signOut

    package var name: String {
        switch self {
        case .signIn: "sign-in"
        case .deliverRedirect: "deliver-redirect"
        case .awaitRedirect: "await-redirect"
        case .refresh: "refresh"
        case .callAPI: "call-api"
        case .signOut: "sign-out"
        }
    }

    /// The command as one JSON line (sorted keys, newline-terminated).
    package func jsonLine(id: String) -> [UInt8] {
        var object: [String: Any] = ["id": id, "command": name]
        switch self {
        case .signIn(let configuration):
            var fields: [String: Any] = [
                "authorization_endpoint": configuration.authorizationEndpoint, "token_endpoint": configuration.tokenEndpoint,
                "revocation_endpoint": configuration.revocationEndpoint, "client_id": configuration.clientID, "scopes": configuration.scopes,
            ]
            if let redirectURI = configuration.redirectURI { fields["redirect_uri"] = redirectURI }
            if let issuer = configuration.issuer {
                fields["issuer"] = issuer
                fields["authorization_response_iss_parameter_supported"] = true
            }
            if let discoveryURL = configuration.discoveryURL { fields["discovery_url"] = discoveryURL }
            if let clientSecret = configuration.clientSecret { fields["client_secret"] = clientSecret }
            if let caFile = configuration.caFile { fields["ca_file"] = caFile }
            if let caPEM = configuration.caPEM { fields["ca_pem"] = caPEM }
            object["configuration"] = fields
        case .deliverRedirect(let url):
            object["url"] = url
        case .awaitRedirect, .refresh, .callAPI, .signOut:
            break
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return [UInt8](data) + [0x0A]
    }
}
