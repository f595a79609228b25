import AppFlipModel
import Testing

/// `validate-url`'s judge: each defect fails (or warns) under exactly the requirement it violates, and requests
/// written the way real libraries and Google's own page write them pass.
@Suite("Authorization request audit")
struct AuthorizationRequestAuditTests {
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"  // RFC 7636 Appendix B
    static let state = "af0ifjsldkjXCi3Q5RYvf2pL8zGkYq9n-T1w_bAcd4E"

    /// A well-formed request with `changes` applied (a nil value removes the parameter), in the order given.
    static func url(_ changes: [(String, String?)] = [], base: String = "https://accounts.google.com/o/oauth2/v2/auth") -> String {
        var parameters: [(String, String)] = [
            ("client_id", "123.apps.googleusercontent.com"), ("redirect_uri", "com.example.app%3A%2Foauth2redirect"),
            ("response_type", "code"), ("scope", "openid%20email"), ("state", state),
            ("code_challenge", challenge), ("code_challenge_method", "S256"),
        ]
        for (name, value) in changes {
            if let index = parameters.firstIndex(where: { $0.0 == name }) {
                if let value { parameters[index].1 = value } else { parameters.remove(at: index) }
            } else if let value {
                parameters.append((name, value))
            }
        }
        return base + "?" + parameters.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    struct Example: Sendable, CustomTestStringConvertible {
        var name: String
        var url: String
        var registered: [String] = []
        var testDescription: String { name }
    }

    static let correct: [Example] = [
        Example(
            name: "Google's own example (custom scheme, %3A colon, raw slash)",
            url:
                "https://accounts.google.com/o/oauth2/v2/auth?scope=email%20profile&response_type=code&state=security_token%3D138r5719ru3e1%26url%3Dhttps%3A%2F%2Foauth2.example.com%2Ftoken&redirect_uri=com.example.app%3A/oauth2redirect&client_id=client_id&code_challenge=\(challenge)&code_challenge_method=S256"
        ),
        Example(
            name: "AppAuth-iOS style: raw ':' and '/', %20 in scope, other order",
            url:
                "https://accounts.google.com/o/oauth2/v2/auth?response_type=code&code_challenge_method=S256&scope=openid%20profile&code_challenge=\(challenge)&redirect_uri=com.googleusercontent.apps.123:/oauthredirect&client_id=123.apps.googleusercontent.com&state=\(state)"
        ),
        Example(
            name: "AppAuth-Android style: '+' for spaces, lower-case escapes, everything encoded",
            url: url([("scope", "openid+email"), ("redirect_uri", "com.example.app%3a%2foauth2redirect")])),
        Example(
            name: "A loopback IPv4 redirect on an ephemeral port, registered without the port",
            url: url([("redirect_uri", "http%3A%2F%2F127.0.0.1%3A51004%2Fcb")]), registered: ["http://127.0.0.1/cb"]),
        Example(name: "A loopback IPv6 redirect without a path", url: url([("redirect_uri", "http%3A%2F%2F%5B%3A%3A1%5D%3A8080")])),
        Example(name: "A custom scheme with no path (Google: the path is optional)", url: url([("redirect_uri", "com.example.app%3A")])),
        Example(name: "A claimed https redirect", url: url([("redirect_uri", "https%3A%2F%2Fapp.example.com%2Foauth2")])),
        Example(name: "A bundle ID scheme with capitals", url: url([("redirect_uri", "com.Example.App%3A%2Fcb")])),
        Example(
            name: "32 lower-case hex characters of state (128 bits) and a login_hint",
            url: url([("state", "0123456789abcdef0123456789abcdef"), ("login_hint", "user%40example.com")])),
        Example(name: "The exact registered URI", url: url(), registered: ["com.example.app:/oauth2redirect"]),
    ]

    @Test("Requests written as Google and the common libraries write them raise no warning or failure", arguments: correct)
    func passes(_ example: Example) {
        let results = AuthorizationRequestAudit(registeredRedirectURIs: example.registered).audit(example.url)
        let findings = results.filter { $0.isFinding && $0.verdict != .info }
        #expect(findings.isEmpty, "\(findings.map { "\($0.requirement): \($0.observed)" })")
        #expect(results.contains { $0.isApplicable && $0.held }, "nothing was judged")
    }

    struct Defect: Sendable, CustomTestStringConvertible {
        var name: String
        var url: String
        var registered: [String] = []
        /// The requirements that must fail or warn, and nothing else.
        var blamed: Set<String>
        var verdict: Verdict = .fail
        var testDescription: String { name }
    }

    static let defects: [Defect] = [
        Defect(name: "implicit flow (response_type=token)", url: url([("response_type", "token")]), blamed: ["NAT-REQ-001"]),
        Defect(name: "no scope", url: url([("scope", nil)]), blamed: ["NAT-REQ-001"]),
        Defect(name: "no client_id", url: url([("client_id", nil)]), blamed: ["NAT-REQ-001"]),
        Defect(name: "a client secret in the URL", url: url([("client_secret", "hunter2")]), blamed: ["NAT-REQ-001"]),
        Defect(name: "a repeated state", url: url() + "&state=\(state)", blamed: ["NAT-REQ-002"]),
        Defect(name: "an invalid escape", url: url([("login_hint", "a%ZZ")]), blamed: ["NAT-REQ-002"]),
        Defect(name: "a raw space", url: url([("scope", "openid email")]), blamed: ["NAT-REQ-002"]),
        Defect(name: "no PKCE", url: url([("code_challenge", nil), ("code_challenge_method", nil)]), blamed: ["NAT-PKCE-006"]),
        Defect(name: "plain PKCE", url: url([("code_challenge_method", "plain")]), blamed: ["NAT-PKCE-004"]),
        Defect(name: "no method (the server takes plain)", url: url([("code_challenge_method", nil)]), blamed: ["NAT-PKCE-004"]),
        Defect(name: "a padded challenge", url: url([("code_challenge", challenge + "%3D")]), blamed: ["NAT-PKCE-003"]),
        Defect(
            name: "a standard-base64 challenge", url: url([("code_challenge", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw%2BcM")]),
            blamed: ["NAT-PKCE-003"]),
        Defect(
            name: "the verifier in the URL", url: url([("code_verifier", "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")]), blamed: ["NAT-PKCE-007"]),
        Defect(name: "a scheme without a period", url: url([("redirect_uri", "myapp%3A%2Fcb")]), blamed: ["NAT-REDIR-001"]),
        Defect(
            name: "the out-of-band flow", url: url([("redirect_uri", "urn%3Aietf%3Awg%3Aoauth%3A2.0%3Aoob")]),
            blamed: ["NAT-REDIR-001", "NAT-REDIR-002"]),
        Defect(name: "two slashes after the scheme", url: url([("redirect_uri", "com.example.app%3A%2F%2Fcb")]), blamed: ["NAT-REDIR-002"]),
        Defect(name: "no slash before the path", url: url([("redirect_uri", "com.example.app%3Acb")]), blamed: ["NAT-REDIR-002"]),
        Defect(name: "http to a host that is not loopback", url: url([("redirect_uri", "http%3A%2F%2Fexample.com%2Fcb")]), blamed: ["NAT-REDIR-004"]),
        Defect(name: "a fragment in the redirect URI", url: url([("redirect_uri", "com.example.app%3A%2Fcb%23x")]), blamed: ["NAT-REDIR-005"]),
        Defect(name: "a redirect URI that is not registered", url: url(), registered: ["com.example.app:/other"], blamed: ["NAT-REDIR-005"]),
        Defect(
            name: "https on loopback where http is registered", url: url([("redirect_uri", "https%3A%2F%2F127.0.0.1%3A5000%2Fcb")]),
            registered: ["http://127.0.0.1/cb"], blamed: ["NAT-REDIR-005"]),
        Defect(
            name: "localhost instead of an IP literal (a warning)", url: url([("redirect_uri", "http%3A%2F%2Flocalhost%3A8080%2Fcb")]),
            blamed: ["NAT-REDIR-004-S"], verdict: .warn),
        Defect(name: "no state (a warning: PKCE guards)", url: url([("state", nil)]), blamed: ["NAT-STATE-001"], verdict: .warn),
        Defect(
            name: "31 hex characters of state (a warning)", url: url([("state", "0123456789abcdef0123456789abcde")]),
            blamed: ["NAT-STATE-001"], verdict: .warn),
    ]

    @Test("Each defect fails (or warns) under exactly the requirement it violates", arguments: defects)
    func blamed(_ defect: Defect) {
        let results = AuthorizationRequestAudit(registeredRedirectURIs: defect.registered).audit(defect.url)
        let findings = results.filter { $0.isFinding && $0.verdict != .info }
        #expect(Set(findings.map(\.requirement.id)) == defect.blamed, "\(findings.map { "\($0.requirement): \($0.observed)" })")
        #expect(findings.allSatisfy { $0.verdict == defect.verdict }, "\(findings.map { "\($0.requirement) \($0.verdict)" })")
    }

    @Test("Another 127.x address is loopback but not a literal Google accepts: NAT-REDIR-004 fails, and says so truly")
    func otherLoopbackAddress() {
        let results = AuthorizationRequestAudit().audit(Self.url([("redirect_uri", "http%3A%2F%2F127.1.0.1%3A8080%2Fcb")]))
        let finding = results.first { $0.requirement.id == "NAT-REDIR-004" }
        #expect(finding?.verdict == .fail)
        #expect(finding?.observed == "http to 127.1.0.1: a loopback address, but not 127.0.0.1 or [::1], the literals Google accepts (RFC 8252 §7.3)")
        #expect(finding?.observed.contains("not the loopback interface") == false)
        let elsewhere = AuthorizationRequestAudit().audit(Self.url([("redirect_uri", "http%3A%2F%2F10.0.0.1%3A8080%2Fcb")]))
        #expect(elsewhere.first { $0.requirement.id == "NAT-REDIR-004" }?.observed == "http to 10.0.0.1, which is not the loopback interface")
    }

    @Test("A secret or verifier in the URL is named, never shown, in what the checks observed")
    func secretsWithheld() {
        let results = AuthorizationRequestAudit().audit(Self.url([("client_secret", "hunter2-SECRET"), ("code_verifier", "VERIFIER-abc")]))
        #expect(!results.contains { $0.observed.contains("hunter2-SECRET") || $0.observed.contains("VERIFIER-abc") })
    }

    @Test("The state's capacity follows its alphabet: digits, hex, alphanumerics, base64url")
    func entropyCapacity() {
        #expect(AuthorizationRequestAudit.entropyCapacity(of: String(repeating: "7", count: 39)) >= 128)
        #expect(AuthorizationRequestAudit.entropyCapacity(of: String(repeating: "7", count: 38)) < 128)
        #expect(AuthorizationRequestAudit.entropyCapacity(of: String(repeating: "a", count: 32)) == 128)
        #expect(AuthorizationRequestAudit.entropyCapacity(of: "aB" + String(repeating: "c", count: 20)) < 132)
        #expect(AuthorizationRequestAudit.entropyCapacity(of: Self.state) > 250)
    }
}
