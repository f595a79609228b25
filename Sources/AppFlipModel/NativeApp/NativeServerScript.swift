/// What the suite's test authorization server answers, as a native-client case scripts it.
package struct NativeServerScript: Sendable, Hashable {
    /// What the authorization endpoint answers.
    package enum AuthorizationAnswer: Sendable, Hashable {
        case code
        case wrongState
        case missingState
        /// A code and the right state, but `iss` naming another authorization server (a mix-up, RFC 9207).
        case wrongIssuer
        case error(String)
    }

    /// What the token endpoint answers to a code or a refresh token it accepts.
    package enum TokenAnswer: Sendable, Hashable {
        case bearer
        /// Extra members no client knows, which it must ignore (RFC 6749 §5.1).
        case unknownMembers
        /// A `token_type` other than Bearer, which the client must not use (RFC 6749 §7.1).
        case tokenType(String)
        /// `invalid_grant`, as for a revoked refresh token.
        case invalidGrant
        /// A 307 to another path of the server (`/moved/token`, recorded like every request), which a client must
        /// not follow with the verifier (RFC 7636 §4.5: the verifier goes to the token endpoint only).
        case redirect
    }

    /// What the discovery metadata (`/.well-known/openid-configuration`) offers for PKCE.
    package enum Metadata: String, Sendable, Hashable, CaseIterable {
        /// S256 and plain, as Google's does.
        case standard
        /// `code_challenge_methods_supported: ["plain"]` only: the app must not take that as leave to use plain
        /// (RFC 7636 §4.2: S256 is mandatory to implement on the server), though it may refuse to sign in.
        case plainOnly = "plain-only"
    }

    /// The certificate the token and revocation endpoints present, served over https for the step (nil: plain http,
    /// as loopback allows). `trusted` is issued by the CA the app is given (`ca_file`, `ca_pem`); every other value
    /// is one the app must refuse (RFC 6749 §10.9, RFC 6125): it must stop, with no code or verifier sent.
    package enum TokenCertificate: String, Sendable, Hashable, CaseIterable {
        case trusted
        /// Issued by a CA the app was not given.
        case otherCA = "other-ca"
        /// Issued by the given CA, but expired a day ago.
        case expired
        /// Issued by the given CA, for another host name than the endpoint's.
        case wrongHost = "wrong-host"

        /// Whether a client that verifies the server's identity must refuse it.
        package var isFlawed: Bool { self != .trusted }

        /// What is wrong with it, in words (nil for the trusted one).
        package var flaw: String? {
            switch self {
            case .trusted: nil
            case .otherCA: "issued by a CA the app was not given"
            case .expired: "expired a day ago"
            case .wrongHost: "issued for \(Self.otherHostName), not the endpoint's address"
            }
        }

        /// The name a wrong-host certificate is issued for.
        package static let otherHostName = "other-host.appflip.example"
    }

    package var authorization: AuthorizationAnswer = .code
    package var token: TokenAnswer = .bearer
    package var refresh: TokenAnswer = .bearer
    /// Whether a refresh issues a new refresh token and retires the old one.
    package var rotateRefreshTokens = false
    package var metadata: Metadata = .standard
    /// Seconds the token endpoint waits before it answers (after it has redeemed the code), as a slow server would.
    package var tokenDelay: Double = 0
    package var tokenCertificate: TokenCertificate?

    /// Whether the script gives a correct app reason to refuse a sign-in before opening the browser: metadata that
    /// offers no S256, or a token endpoint whose certificate it must refuse (an app may look before it starts).
    /// Otherwise such a refusal breaks the adapter contract and the case is an error.
    package var justifiesRefusal: Bool { metadata == .plainOnly || tokenCertificate?.isFlawed == true }

    package init() {}
}
