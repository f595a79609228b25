/// The native apps `broken-native-client --defect NAME [--redirect loopback]` runs: the reference native client with
/// one stage replaced.
package enum NativeClientDefects {
    private static func defect(
        _ name: String, _ summary: String, fails: Set<String> = [], warns: Set<String> = [], loopback: Bool = false,
        condition: Defect.Condition? = nil
    ) -> Defect {
        Defect(.nativeClient, name, summary, fails: fails, warns: warns, redirect: loopback ? "loopback" : "scheme", condition: condition)
    }

    private static func variant(_ name: String, _ summary: String, loopback: Bool = false) -> Defect {
        Defect(.nativeClient, name, summary, role: .variant, redirect: loopback ? "loopback" : "scheme")
    }

    private static func fixture(_ name: String, _ summary: String) -> Defect {
        Defect(.nativeClient, name, summary, role: .fixture, redirect: "scheme")
    }

    package static let all: [Defect] = [
        defect("plain-pkce", "uses the plain challenge method", fails: ["NAT-PKCE-004"]),
        defect(
            "base64-challenge",
            "encodes its S256 challenge in the standard base64 alphabet, padding stripped ('+' and '/' in about three sign-ins of four)",
            fails: ["NAT-PKCE-003"]),
        defect("no-response-type", "leaves response_type out of its authorization request", fails: ["NAT-REQ-001"]),
        defect("repeats-scope", "sends the scope parameter twice in its authorization request", fails: ["NAT-REQ-002"]),
        defect(
            "scheme-without-period", "its private-use redirect URI's scheme has no period (reference:/oauth2redirect)", fails: ["NAT-REDIR-001"]),
        defect(
            "refuses-unknown-members", "refuses a token response that carries a member it does not know (RFC 6749 §5.1: ignore it)",
            fails: ["NAT-TOK-002"]),
        defect("fixed-verifier", "uses the same verifier for every sign-in", fails: ["NAT-PKCE-002"]),
        defect("no-state", "sends no state (relies on PKCE)", warns: ["NAT-STATE-001"]),
        defect("state-not-checked", "sends a state but accepts a redirect with any state", fails: ["NAT-STATE-002"]),
        defect("localhost", "its loopback redirect URI names localhost, not 127.0.0.1", warns: ["NAT-REDIR-004-S"], loopback: true),
        defect(
            "other-loopback-address", "its loopback redirect URI and listener use 127.1.0.1: loopback, but not a literal Google accepts",
            fails: ["NAT-REDIR-004"], loopback: true),
        defect("double-slash", "its private-use redirect URI has two slashes after the scheme", fails: ["NAT-REDIR-002"]),
        defect("redirect-differs", "sends the code exchange another redirect_uri (a trailing slash)", fails: ["NAT-REDIR-005"]),
        defect("old-refresh-token", "keeps the first refresh token after a rotation", fails: ["NAT-TOK-004"]),
        defect("any-token-type", "uses a token whatever its token_type", fails: ["NAT-TOK-003"]),
        defect("follows-redirect", "re-posts the code exchange to a 307's Location", fails: ["NAT-PKCE-007"]),
        defect("plain-after-error", "falls back to plain PKCE after the server refused a request", fails: ["NAT-PKCE-004", "NAT-PKCE-005"]),
        defect("no-revoke", "signs out without revoking", warns: ["NAT-TOK-005"]),
        defect("embedded", "opens the sign-in page in an embedded web view", fails: ["NAT-REQ-003"]),
        defect(
            "listener-any", "its loopback listener binds 0.0.0.0, reachable from the network", warns: ["NAT-REDIR-004-S"], loopback: true,
            condition: .socketTable),
        defect(
            "listener-stays-open", "its loopback listener stays open after the callback", warns: ["NAT-REDIR-004-S"], loopback: true,
            condition: .socketTable),
        defect(
            "listener-closed-early", "closes its loopback listener before the browser comes, then says so when asked for the redirect",
            warns: ["NAT-REDIR-004-S"], loopback: true),
        defect(
            "listener-silent", "its loopback listener takes the browser's request and never answers it, nor tells the app",
            warns: ["NAT-REDIR-004-S"], loopback: true),
        defect(
            "accepts-replay", "keeps a sign-in pending after its response, so a replayed response is exchanged again",
            fails: ["NAT-STATE-002"]),
        defect("ignores-issuer", "exchanges a code from a response that names another issuer (a mix-up)", warns: ["NAT-MIX-001-S"]),
        defect("accepts-unsolicited", "with no sign-in pending, exchanges whatever response arrives", fails: ["NAT-STATE-002"]),
        defect("no-verifier", "sends the code exchange without its code_verifier", fails: ["NAT-PKCE-006"]),
        defect(
            "short-verifier", "uses a fixed 42-character verifier (one short of the minimum)", fails: ["NAT-PKCE-001", "NAT-PKCE-002"]),
        defect("wrong-verifier", "sends the code exchange another verifier than the one it hashed", fails: ["NAT-PKCE-003"]),
        defect("plain-from-metadata", "uses plain when the discovery document offers no S256", fails: ["NAT-PKCE-004"]),
        defect(
            "retries-slow-exchange", "gives up on a code exchange after half a second and sends the same code again",
            fails: ["NAT-TOK-006"]),
        defect("time-state", "derives its state from the clock (long enough, but guessable)", warns: ["NAT-STATE-001"]),
        defect("authenticates-twice", "sends HTTP Basic and client_secret in the body: two client authentications at once", fails: ["NAT-TOK-001"]),
        defect("verifier-in-query", "puts the code_verifier in the token request's URL as well as its body", fails: ["NAT-PKCE-007"]),
        defect("verifier-on-sign-out", "sends the code_verifier again with the revocation request on sign-out", fails: ["NAT-PKCE-007"]),
        defect(
            "accepts-any-certificate", "makes its TLS connections verifying nothing: any certificate is accepted", fails: ["NAT-REQ-004"],
            condition: .ownTLS),
        defect(
            "accepts-any-certificate", "makes its TLS connections verifying nothing: any certificate is accepted", fails: ["NAT-REQ-004"],
            loopback: true, condition: .ownTLS),
        defect(
            "no-host-check", "verifies the certificate's chain (against ca_file) but not that it names the host", fails: ["NAT-REQ-004"],
            condition: .ownTLS),
        defect(
            "wrong-secret", "names itself by HTTP Basic with a client secret other than the configured one (the server refuses: invalid_client)",
            fails: ["NAT-TOK-001"]),
        defect("no-pkce", "sends no code_challenge and no code_verifier (no PKCE at all)", fails: ["NAT-PKCE-006"]),
        variant("refuses-without-s256", "refuses to sign in when the discovery document offers no S256"),
        variant("hex-state", "a state of 64 random hex digits"),
        variant(
            "basic-client-auth",
            "names itself by HTTP Basic with the installed-app secret and sends no client_id in the body (Google's installed-app library)"),
        variant(
            "basic-client-auth",
            "names itself by HTTP Basic with the installed-app secret and sends no client_id in the body (Google's installed-app library)",
            loopback: true),
        variant("client-credentials-after-error", "after an error response, requests a client_credentials token (no code: no downgrade)"),
        variant("revokes-in-query", "revokes with the token in the query of the POST, as Google documents its revocation endpoint"),
        variant("ca-file", "trusts ca_file in a TLS context of its own and verifies the chain and the host (the reference trusts ca_pem)"),
        variant("basic-no-secret", "names itself by HTTP Basic with an empty password, a public client, as some libraries do"),
        fixture(
            "holds-connections", "opens 40 connections to the authorization server when asked to sign in, and holds them without a word"),
        fixture(
            "floods-server",
            "sends the authorization server 1,100 requests and three of 1 MiB when asked to sign in, then signs in as the reference"),
        fixture("refuses-sign-in", "breaks the contract: answers every sign-in with rejected"),
        fixture("ignores-given-ca", "breaks the contract: trusts only the system's store, not the CA the configuration gives"),
        fixture(
            "keeps-first-endpoints", "keeps the first sign-in's token and revocation endpoints for every later sign-in (a reused Flow)"),
    ]
}
