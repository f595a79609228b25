import Foundation

/// What a variable passed to every adapter (`--handler-env NAME`, `handler_env:` in a configuration) must be, one
/// rule for both ways of naming it. Its value is a secret, hidden wherever the run writes, so it must be long enough
/// and unusual enough that hiding it blanks nothing else: a value `https` or `code` would blank those words out of
/// every report a reviewer reads.
package enum HandlerEnvironmentRule {
    /// The shortest value: a shorter one is too likely to be a piece of other text.
    package static let minimumLength = 8

    /// Text the suite's evidence is written in: a value found inside any of it (case aside) would blank it out.
    package static let evidenceWords = [
        "https://", "http://", "oauth-redirect.googleusercontent.com", "oauth-redirect-sandbox.googleusercontent.com",
        "authorization_code", "authorization", "refresh_token", "access_token", "token_type", "expires_in", "client_id",
        "client_secret", "redirect_uri", "response_type", "code_challenge_method", "code_verifier", "invalid_request",
        "invalid_client", "invalid_grant", "unauthorized_client", "unsupported_grant_type", "unsupported_response_type",
        "invalid_scope", "access_denied", "server_error", "temporarily_unavailable", "unrecoverable", "cancelled",
        "application/json", "application/x-www-form-urlencoded", "content-type", "www-authenticate", "strict-transport-security",
        "location", "bearer", "consent", "universal_links_only", "apple-app-site-association", "127.0.0.1", "localhost",
    ]

    /// Why `name` (with `value`, as the environment gives it; nil when unset) cannot be passed, or nil when it can.
    package static func problem(name: String, value: String?) -> String? {
        if let problem = nameProblem(name) { return problem }
        guard let value, !value.isEmpty else { return "the environment variable \(name) is not set (the suite passes its value to every adapter)" }
        guard value.utf8.count >= minimumLength else {
            return "its value is shorter than \(minimumLength) bytes, too short to be told apart from other text and hidden: every "
                + "occurrence of it in every report would be blanked; pass a longer value"
        }
        let lowered = value.lowercased()
        if let word = evidenceWords.first(where: { $0.contains(lowered) }) {
            return "its value is text the reports are written in ('\(word)'), and hiding it would blank that out of the evidence a "
                + "reviewer reads; pass a value of its own"
        }
        return nil
    }

    /// Why `name` itself cannot be passed (malformed, or a variable the suite sets), or nil.
    package static func nameProblem(_ name: String) -> String? {
        guard let first = name.unicodeScalars.first, first == "_" || CharacterSet.letters.contains(first), first.isASCII,
            name.unicodeScalars.allSatisfy({ $0.isASCII && ($0 == "_" || CharacterSet.alphanumerics.contains($0)) })
        else {
            return "takes the name of an environment variable (letters, digits and '_'), not '\(name)'"
        }
        return name.hasPrefix("APPFLIP_CONFORMANCE") ? "the suite sets that variable itself for every adapter" : nil
    }
}
