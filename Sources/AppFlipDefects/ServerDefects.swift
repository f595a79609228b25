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
            fails: ["TOK-CODE-004", "AF-LINK-024", "AF-ANDR-012"],
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
        defect(
            "state-truncated", "keeps at most 1,024 characters of a state (a column too narrow) and returns what it kept", fails: ["AF-AUTHZ-007"]),
        defect("refusal-without-state", "builds the refusal's redirect by hand and forgets the state", fails: ["AF-AUTHZ-008"]),
        defect(
            "refusal-as-server-error", "answers a user's refusal with server_error, as a consent page that throws on Cancel",
            fails: ["AF-AUTHZ-009"]),
        defect("any-response-type", "issues a code whatever response_type says (token, id_token, none)", fails: ["AF-AUTHZ-006"]),
        defect(
            "refuses-unknown-parameters", "refuses a parameter it does not know with invalid_request, where RFC 6749 §3.1 says ignore it",
            fails: ["AF-AUTHZ-010"]),
        defect(
            "authorize-first-of-repeated", "takes the first copy of a repeated authorization parameter instead of refusing the request",
            fails: ["AF-AUTHZ-003", "AF-AUTHZ-005", "AF-AUTHZ-011"]),
        defect(
            "missing-scope-server-error", "fails on a request without a scope parameter: an error redirect with server_error",
            fails: ["AF-AUTHZ-012"]),
        defect("cors-on-authorize", "lets any origin's script read its authorization responses (CORS)", fails: ["AF-AUTHZ-023"]),
        defect(
            "sandbox-uri-refused", "registered only Google's production redirect URI: a valid request to the sandbox one gets the error page",
            fails: ["AF-AUTHZ-002"]),
        defect(
            "sandbox-to-production", "keeps one redirect URI per client: a sandbox request is answered at the production URI",
            fails: ["AF-AUTHZ-004"]),
        defect("plain-only-pkce", "supports the plain PKCE method only: an S256 challenge gets invalid_request", fails: ["AF-AUTHZ-015"]),
        defect(
            "sequential-codes", "hands out authorization codes c-1, c-2, …: unique, and guessable", fails: ["AF-AUTHZ-014"],
            warns: ["AF-AUTHZ-014-S"]),
        defect("codes-never-expire", "declares a code lifetime, but keeps its codes redeemable for a day", fails: ["AF-AUTHZ-013"]),
        defect("token-takes-get", "answers a GET whose query holds the form as if it were the POST", fails: ["TOK-GEN-002"]),
        defect(
            "token-first-of-repeated", "takes the first copy of a repeated token parameter instead of refusing the request",
            fails: ["TOK-GEN-003"]),
        defect(
            "two-client-authentications", "takes a request that authenticates twice (HTTP Basic and client_secret in the body)",
            fails: ["TOK-GEN-004"]),
        defect(
            "basic-auth-refused",
            "supports client_secret_post only: a code exchange authenticated with HTTP Basic gets 401 invalid_client, as a wrong secret would",
            fails: ["TOK-CODE-001", "TOK-GEN-004"]),
        defect("redirect-uri-unchecked", "never compares the exchange's redirect_uri with the authorization request's", fails: ["TOK-CODE-002"]),
        defect("unknown-code-invalid-request", "answers a code it never issued with invalid_request, not invalid_grant", fails: ["TOK-CODE-005"]),
        defect(
            "unknown-grant-invalid-request", "answers a grant type it does not support with invalid_request, not unsupported_grant_type",
            fails: ["TOK-CODE-006"]),
        defect("verifier-optional", "checks a verifier when one is sent, and redeems a challenged code without one", fails: ["TOK-PKCE-002"]),
        defect(
            "verifier-without-challenge", "ignores a verifier sent for a code issued without a challenge (a downgrade it does not see)",
            fails: ["TOK-PKCE-003"]),
        defect(
            "token-response-without-expires-in", "never says how long a code exchange's access token lives (no expires_in)",
            fails: ["TOK-RESP-001"]),
        defect(
            "token-type-mac", "calls a code exchange's access token a MAC token, though its API takes it as Bearer", fails: ["TOK-RESP-002"]),
        defect("errors-typed-html", "writes its JSON token errors under the framework's default Content-Type, text/html", fails: ["TOK-ERR-001"]),
        defect(
            "bad-refresh-invalid-request", "answers a refresh token it never issued with invalid_request, not invalid_grant",
            fails: ["TOK-REF-002"]),
        defect(
            "revoke-answers-204", "answers the revocation of a refresh token, sent without a hint, with 204 No Content, not 200",
            fails: ["TOK-REV-001"]),
        defect(
            "refresh-revocation-ignored", "says 200 to the revocation of a refresh token, and keeps it working",
            fails: ["TOK-REV-002", "TOK-REV-004", "TOK-REV-005"], warns: ["TOK-REV-006"]),
        defect(
            "revocation-delayed",
            "revokes refresh tokens from a queue a worker drains seconds later: one used at once still works (the cases cannot tell this from "
                + "a revocation that never happens, so TOK-REV-002 fails with TOK-REV-005)",
            fails: ["TOK-REV-002", "TOK-REV-005"], warns: ["TOK-REV-006"]),
        defect("code-any-client", "redeems a code for whichever authenticated client presents it", fails: ["TOK-CODE-003"]),
        defect("same-user-for-everyone", "its API answers every access token as the first test user's", fails: ["TOK-CODE-007"]),
        defect(
            "short-flip-codes", "mints the codes an app hands Google (App Flip) as 16 hex digits: 64 bits, where 128 are asked",
            fails: ["AF-ANDR-015"]),
        Defect(
            .server, "consent-without-csrf", "takes a consent form without its anti-forgery token, or with another session's",
            fails: ["AF-AUTHZ-020"], signsInThroughPages: true),
        Defect(
            .server, "open-return-to", "sends a user who signed in wherever the sign-in form's return parameter says",
            fails: ["AF-AUTHZ-018"], signsInThroughPages: true),
        Defect(
            .server, "consent-307", "answers the consent form's POST with 307, so the browser would post the form on to the client",
            fails: ["AF-AUTHZ-022"], signsInThroughPages: true),
        defect(
            "authorize-over-plain-http", "answers plain http on its https port as it answers https: the sign-in page comes over http",
            fails: ["AF-AUTHZ-001"]),
        defect(
            "plain-http-redirects-to-http", "answers plain http on its https port with a redirect to another http URL, not to https",
            fails: ["AF-AUTHZ-001", "TOK-GEN-001"]),
        defect("association-for-another-app", "its site association lists another team's app for the App Flip path", fails: ["AF-LINK-001"]),
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
