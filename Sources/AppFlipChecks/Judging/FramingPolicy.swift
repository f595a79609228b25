import AppFlipBase

/// Whether a page's headers forbid framing by another origin (X-Frame-Options DENY or SAMEORIGIN, or a CSP
/// `frame-ancestors` of only `'none'` and `'self'`): what `framing: denied` judges, and what the sign-in walk records of
/// every page it renders.
package enum FramingPolicy {
    /// Whether these headers forbid framing by another origin, with what they said.
    package static func denies(_ xFrameOptions: [String], _ policies: [String]) -> (Bool, [String], String?) {
        let frameOptions = xFrameOptions.map { $0.trimmingSpaces().uppercased() }
        // The first directive that names `frame-ancestors`, lower-cased. Every page of a sign-in walk is asked this,
        // and a policy has a dozen directives: only one whose first bytes may spell the name is lower-cased.
        var ancestors: String?
        search: for policy in policies {
            for piece in policy.split(separator: ";") {
                let directive = piece.trimmingSpaces()
                guard mayName(directive) else { continue }
                let lowered = directive.lowercased()
                if lowered.hasPrefix(name) {
                    ancestors = lowered
                    break search
                }
            }
        }
        let cspDenies =
            ancestors.map { directive in
                let sources = directive.split(separator: " ").dropFirst().map(String.init)
                return !sources.isEmpty && sources.allSatisfy { $0 == "'none'" || $0 == "'self'" }
            } ?? false
        return (cspDenies || frameOptions.contains("DENY") || frameOptions.contains("SAMEORIGIN"), frameOptions, ancestors)
    }

    private static let name = "frame-ancestors"

    /// False only when `directive` lower-cased cannot start with `frame-ancestors`: its first bytes, ASCII letters
    /// compared without case, are not the name. A non-ASCII byte among them cannot start it either: a combining mark
    /// changes the character it follows, and the Kelvin sign and İ, the only characters outside ASCII that lower-case to
    /// ASCII (k, and i with a dot), are not in the name. A directive that passes is lower-cased and compared as the rest
    /// of the policy once was.
    private static func mayName(_ directive: String) -> Bool {
        directive.utf8.hasASCIIPrefixIgnoringCase("frame-ancestors")
    }
}
