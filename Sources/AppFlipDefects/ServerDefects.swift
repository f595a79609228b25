/// The partner servers `appflip-reference serve --defect NAME` runs: the reference server with one endpoint behaving as
/// a real partner's gets it wrong (or, for a variant, as another correct server does it).
package enum ServerDefects {
    private static func defect(_ name: String, _ summary: String, fails: Set<String> = [], warns: Set<String> = []) -> Defect {
        Defect(.server, name, summary, fails: fails, warns: warns)
    }

    private static func variant(_ name: String, _ summary: String) -> Defect { Defect(.server, name, summary, role: .variant) }

    package static let all: [Defect] = [
        defect(
            "narrowed-scope-unreported", "never says which scope it granted, even when it granted less than was asked",
            fails: ["TOK-RESP-005"]),
        defect("iss-advertised-not-sent", "its metadata advertises iss, but its authorization responses leave it out", fails: ["AF-AUTHZ-025"]),
        defect(
            "native-refresh-not-rotated", "answers a public client's refresh without rotating the refresh token (nor binding it)",
            fails: ["TOK-REF-006"]),
        defect("native-fixed-port", "accepts the native client's loopback redirect URI only on its registered port", fails: ["NAT-AS-001"]),
        defect(
            "native-prefix-match", "matches the native client's redirect URI by prefix, so a longer path gets the code",
            fails: ["NAT-AS-002"]),
        defect("native-secret-required", "treats the native client as confidential: no secret, no token", fails: ["NAT-AS-004"]),
        defect("counter-access-tokens", "hands out access tokens at-1, at-2, …: all different, all guessable", fails: ["TOK-RESP-004"]),
        defect(
            "api-refuses-tokens", "its API wants a token type the token endpoint never issues (refreshed ones included)",
            fails: ["TOK-RESP-006", "TOK-REF-001"]),
        defect(
            "revoke-trusts-hint", "looks only among access tokens when the hint says so: a refresh token with a wrong hint survives",
            fails: ["TOK-REV-004"]),
        defect("revoke-any-client", "revokes whatever token it is given, whichever client asks", fails: ["TOK-REV-007"]),
        defect("rotation-without-grace", "rotates refresh tokens and kills the old one at once, before the new one is used", fails: ["TOK-REF-005"]),
        defect(
            "redirect-path-any-case", "matches the redirect URI's path without regard to case (/R/ is taken for /r/)",
            fails: ["AF-AUTHZ-005"]),
        defect(
            "client-id-any-case", "finds the client without regard to case (a case-insensitive collation): GOOGLE-CLIENT is Google's",
            fails: ["AF-AUTHZ-003"]),
        defect("refresh-any-client", "lets any authenticated client refresh any client's refresh token", fails: ["TOK-REF-003"]),
        defect("refresh-widens-scope", "grants whatever scope a refresh asks for, and says so", fails: ["TOK-REF-004"]),
        defect(
            "any-redirect-uri", "authorizes against the registered URI whatever was sent, then redirects to what was sent", fails: ["AF-AUTHZ-005"]),
        defect(
            "missing-challenge-wrong-error", "requires PKCE, but refuses a method without a challenge with unauthorized_client",
            fails: ["AF-AUTHZ-016"]),
        defect(
            "replay-keeps-tokens", "refuses a replayed code, but never revokes the tokens of its first redemption",
            warns: ["TOK-CODE-004-S"]),
        defect(
            "redirects-unknown-client", "redirects an unknown client's request to its redirect URI with an error instead of refusing it",
            fails: ["AF-AUTHZ-003"]),
        defect(
            "reusable-codes", "redeems the same code again and again, with the same tokens (a flip's code too)",
            fails: ["TOK-CODE-004", "AF-LINK-024"],
            warns: ["TOK-CODE-004-S"]),
        defect(
            "pkce-not-verified", "never stores Google's challenges, so any verifier redeems the code (one must be sent)",
            fails: ["TOK-PKCE-001", "TOK-PKCE-004"], warns: ["TOK-PKCE-005"]),
        defect("no-no-store", "sends its token responses without Cache-Control: no-store", fails: ["TOK-GEN-007"]),
        defect("revoke-unknown-400", "answers the revocation of an unknown token with 400", fails: ["TOK-REV-003"]),
        defect("framable-pages", "lets its sign-in and consent pages be framed (no X-Frame-Options, no frame-ancestors)", fails: ["AF-AUTHZ-021"]),
        defect(
            "revoke-spares-refreshed-tokens",
            "revoking a refresh token ends the access token of the code exchange, but not those a refresh obtained",
            warns: ["TOK-REV-006"]),
        defect(
            "basic-without-www-authenticate", "answers a failed HTTP Basic client authentication with 400 and no WWW-Authenticate",
            fails: ["TOK-GEN-005"]),
        // Correct, but not as the reference does it.
        variant("throttle-by-delay", "throttles guessed secrets by a growing delay, not 429 (RFC 6749 §2.3.1 names no means)"),
        variant("rotating-refresh-with-grace", "rotates refresh tokens; the old one works until the new one is used (Google's rule)"),
        variant("s256-only", "supports S256 only: plain gets invalid_request (RFC 7636 §4.2, §4.4.1)"),
        variant("pkce-not-required", "does not require PKCE: a method without a challenge is ignored (RFC 7636 §4.4.1)"),
        variant(
            "refresh-ignores-extra-scope", "ignores a refresh's scope parameter and states the original grant (RFC 6749 §3.3)"),
        variant("token-get-405", "refuses GET at the token endpoint with a 405 page (RFC 6749 §3.2 names no answer)"),
        variant(
            "unauthorized-client-for-token", "refuses response_type=token with unauthorized_client (RFC 6749 §4.1.2.1 allows it)"),
        variant(
            "downgrade-invalid-request", "refuses a verifier for a code issued without a challenge with invalid_request (RFC 9700 §2.1.1)"),
        variant(
            "error-page-by-redirect", "sends an invalid request to its own error page by a redirect (RFC 6749 §4.1.2.1 allows it)"),
        variant(
            "sign-in-by-redirect", "redirects a user who is not signed in to its own sign-in page (RFC 9700 §4.11.2 allows it)"),
    ]
}
