/// The Android App Flip activities `broken-android-handler --defect NAME` runs: the reference activity with one stage
/// replaced.
package enum AndroidHandlerDefects {
    private static func defect(_ name: String, _ summary: String, fails: Set<String> = [], warns: Set<String> = []) -> Defect {
        Defect(.androidHandler, name, summary, fails: fails, warns: warns)
    }

    private static func variant(_ name: String, _ summary: String) -> Defect { Defect(.androidHandler, name, summary, role: .variant) }

    package static let all: [Defect] = [
        defect(
            "silent-bad-caller", "shows an error and stays on a caller it refuses: no result, no finish() (Google's sample)",
            fails: ["AF-ANDR-005"]),
        defect("no-caller-check", "never checks who started it", fails: ["AF-ANDR-001"]),
        defect("package-only-caller-check", "checks the calling package but not its certificate", fails: ["AF-ANDR-001"]),
        defect(
            "no-client-check", "only checks that CLIENT_ID is there, never its value (Google's sample)", fails: ["AF-ANDR-004"],
            warns: ["AF-ANDR-004-S"]),
        defect(
            "case-insensitive-client-id", "compares CLIENT_ID without regard to case", fails: ["AF-ANDR-004"], warns: ["AF-ANDR-004-S"]),
        defect(
            "empty-code", "answers consent with RESULT_OK and an empty AUTHORIZATION_CODE (an option of Google's sample)",
            fails: ["AF-ANDR-002"]),
        defect("no-data-on-ok", "answers consent with RESULT_OK and no data intent", fails: ["AF-ANDR-002"]),
        defect("no-data-on-error", "answers every error with -2 and no data intent", fails: ["AF-ANDR-003"]),
        defect("string-error-type", "puts ERROR_TYPE as a String (\"2\"), which Google reads as recoverable", fails: ["AF-ANDR-003"]),
        defect("string-error-code", "puts ERROR_CODE as a String", fails: ["AF-ANDR-003"]),
        defect(
            "error-type-out-of-range", "answers a failed verification with ERROR_TYPE 4", fails: ["AF-ANDR-003"], warns: ["AF-ANDR-004-S"]),
        defect("error-extras-on-ok", "adds ERROR_TYPE and ERROR_CODE to a RESULT_OK result", warns: ["AF-ANDR-006"]),
        defect("never-finishes", "sets the right result but never calls finish()", fails: ["AF-ANDR-005"]),
        defect(
            "odd-result-on-string-scope", "answers result code 1 (RESULT_FIRST_USER) when SCOPE is not a String[]", fails: ["AF-ANDR-007"]),
        defect("crash-on-huge-extra", "crashes (exits) on a String extra longer than 65536 characters", fails: ["AF-ANDR-013"]),
        defect(
            "crash-on-string-scope", "crashes (exits) when SCOPE is there but not a String[] (a cast used unchecked)", fails: ["AF-ANDR-007"]),
        defect(
            "deny-recoverable", "answers a refused consent with ERROR_TYPE 1 (recoverable), so Google goes on to web linking",
            fails: ["AF-ANDR-008"]),
        defect("cancel-unrecoverable", "answers an abandoned sign-in with ERROR_TYPE 2 (unrecoverable)", fails: ["AF-ANDR-009"]),
        defect("disabled-recoverable", "answers a disabled account with ERROR_TYPE 1 (recoverable)", fails: ["AF-ANDR-010"]),
        defect("unredeemable-code", "returns codes its server never issued (minted locally)", fails: ["AF-ANDR-012"]),
        defect(
            "repeats-code", "mints one code at its server and returns it on every later consent too (visible in persistent mode)",
            fails: ["AF-ANDR-011"]),
        defect("refuses-unknown-extra", "refuses a request that carries an extra it does not know", fails: ["AF-ANDR-013"]),
        defect(
            "refuses-scope-array", "refuses every request whose SCOPE is a String[] (it reads SCOPE as a String), Google's own among them",
            fails: ["AF-ANDR-002"]),
        defect(
            "digest-prefix", "accepts a caller whose certificate digest starts an allowed one, or is started by it (a prefix compare)",
            fails: ["AF-ANDR-001"]),
        Defect(
            .androidHandler, "unusable-answers",
            "answers each consent with its live code in an answer the contract cannot use, in turn: no \"finished\", "
                + "\"result_code\" as a string, AUTHORIZATION_CODE as a CharSequence or a String[], a repeated member, a line cut short",
            role: .fixture),
        Defect(
            .androidHandler, "floods-after-answer", "answers, then writes 3 MiB more (one-shot: the flood follows the answer's line)",
            role: .fixture),
        variant("google-app-only", "allows only the Google app (the one caller Google's pages name), refusing Google Home"),
        variant("normalised-digest", "compares certificate digests by their hex digits alone, whatever their case and colons"),
        variant(
            "legitimate-variant",
            "cancels (0) refused callers, answers failed client checks with type 1, cancels an abandoned sign-in with -2/1, "
                + "sends no ERROR_DESCRIPTION, compares certificate digests in lower case"),
    ]
}
