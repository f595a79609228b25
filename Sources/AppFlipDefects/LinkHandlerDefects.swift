/// The link handlers `broken-handler --defect NAME` runs: the reference handler with one stage replaced.
package enum LinkHandlerDefects {
    private static func defect(_ name: String, _ summary: String, fails: Set<String> = [], warns: Set<String> = []) -> Defect {
        Defect(.linkHandler, name, summary, fails: fails, warns: warns)
    }

    private static func fixture(_ name: String, _ summary: String) -> Defect { Defect(.linkHandler, name, summary, role: .fixture) }

    package static let all: [Defect] = [
        defect(
            "lookalike-host", "accepts any https host that starts with Google's redirect host (suffix look-alikes)", fails: ["AF-LINK-005"]),
        defect("prefix-bundle", "matches the flip URI list by prefix, so com.google.OPA.evil passes", fails: ["AF-LINK-005"]),
        defect("any-redirect", "opens whatever redirect_uri it is given", fails: ["AF-LINK-005", "AF-LINK-008"]),
        defect("no-client-check", "never checks client_id, as Google's published sample does", fails: ["AF-LINK-003", "AF-LINK-006"]),
        defect(
            "silent-bad-client", "opens nothing when client_id is wrong, as Google's inline sample does",
            fails: ["AF-LINK-006", "AF-LINK-008", "AF-LINK-018"]),
        // One bug behind many failing cases: what the reports' root causes are tested with. Its checks fail under every
        // requirement whose cases look for the state or the code, so it proves no single requirement.
        fixture("drops-state", "never returns the state (every result lacks it): one bug behind many failing cases"),
        defect("raw-state", "appends values without percent-encoding, as Google's sample app does", fails: ["AF-LINK-010", "AF-LINK-011"]),
        defect("reencodes-state", "percent-encodes values twice", fails: ["AF-LINK-010"]),
        defect(
            "user-not-authorized", "answers a refusal with error=user_not_authorized, as Google's sample app does",
            fails: ["AF-LINK-013", "AF-LINK-014"]),
        defect("deny-as-cancelled", "answers a refusal with error=cancelled", fails: ["AF-LINK-014"]),
        defect("cancel-as-denied", "answers an abandoned sign-in with error=access_denied, ending a recoverable link", fails: ["AF-LINK-015"]),
        defect("disabled-as-cancelled", "answers a disabled account with error=cancelled, so Google retries", fails: ["AF-LINK-016"]),
        defect(
            "misses-one-listed", "its list has eleven of the twelve flip URIs (the production Google Home enterprise one is missing)",
            fails: ["AF-LINK-004"]),
        defect(
            "fixed-flip-uri", "opens the Google Assistant's production flip URI whichever listed one the link named", fails: ["AF-LINK-022"]),
        defect("first-of-repeated", "takes the first copy of a repeated parameter", fails: ["AF-LINK-005", "AF-LINK-007"]),
        fixture("empty-code", "returns an empty code: one bug behind many failing cases"),
        defect("fixed-code", "returns the same code on every consent, so no code can be single-use", fails: ["AF-LINK-012", "AF-LINK-024"]),
        defect(
            "trims-client-id", "trims white space around client_id before comparing it (a trailing line feed passes)",
            fails: ["AF-LINK-003", "AF-LINK-006"]),
        defect(
            "case-insensitive-client-id", "compares client_id without regard to case (GOOGLE-CLIENT passes for google-client)",
            fails: ["AF-LINK-003", "AF-LINK-006"]),
        defect("trims-state", "trims white space around state before echoing it", fails: ["AF-LINK-010"]),
        defect(
            "encoded-links-only", "declines a link whose redirect_uri is not percent-encoded, as Google's test tool sends it",
            fails: ["AF-LINK-002", "AF-LINK-010"]),
        defect(
            "short-code", "returns a different code for every link, but with only 64 bits of entropy (RFC 6749 §10.10 asks 128)",
            fails: ["AF-LINK-012", "AF-LINK-024"]),
        defect("no-universal-links", "opens results without universal-links-only", warns: ["AF-LINK-019"]),
        defect("crash-long-state", "crashes (SIGABRT) on a state longer than 4096 characters", fails: ["AF-LINK-023"]),
        // The implicit flow's shape: every check that reads the query finds nothing there, so it proves no single one.
        fixture(
            "result-in-fragment", "opens the redirect URI with its result in the fragment (#code=…&state=…), as the implicit flow would"),
        defect(
            "token-in-fragment", "adds an access token to each code result, in the fragment (#access_token=…), as a hybrid flow would",
            fails: ["AF-LINK-011", "AF-LINK-020"]),
        fixture("hang", "never answers"),
        fixture("floods-after-answer", "answers, then writes output without end (until its pipe closes)"),
        fixture("floods-late", "answers, waits 0.3 s, then writes output without end (so the flood arrives after the next request)"),
        fixture("garbage", "answers with a line that is not JSON"),
        fixture("raw-state-chatty", "raw-state, and prints a stray log line after every answer (a protocol fault on top of real violations)"),
        fixture("link-derived-code", "the reference, but each code is derived from the link, so reports can be compared byte for byte"),
        Defect(
            .linkHandler, "components-style", "reads the link as URLComponents.queryItems does ('+' stays a plus), as Google's samples do",
            role: .variant),
        Defect(
            .linkHandler, "legitimate-variant",
            "state first, '+' for spaces, lower-case hex, no error_description, invalid_request for a missing scope", role: .variant),
    ]
}
