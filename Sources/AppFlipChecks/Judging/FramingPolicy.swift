import AppFlipBase

/// Whether a page's headers forbid framing by another origin (X-Frame-Options DENY or SAMEORIGIN, or a CSP
/// `frame-ancestors` of only `'none'` and `'self'`): what `framing: denied` judges, and what the sign-in walk records of
/// every page it renders.
package enum FramingPolicy {
    /// Whether these headers forbid framing by another origin, with what they said.
    package static func denies(_ xFrameOptions: [String], _ policies: [String]) -> (Bool, [String], String?) {
        let frameOptions = xFrameOptions.map { $0.trimmingSpaces().uppercased() }
        let directives = policies.flatMap { $0.split(separator: ";") }.map { $0.trimmingSpaces().lowercased() }
        let ancestors = directives.first { $0.hasPrefix("frame-ancestors") }
        let cspDenies =
            ancestors.map { directive in
                let sources = directive.split(separator: " ").dropFirst().map(String.init)
                return !sources.isEmpty && sources.allSatisfy { $0 == "'none'" || $0 == "'self'" }
            } ?? false
        return (cspDenies || frameOptions.contains("DENY") || frameOptions.contains("SAMEORIGIN"), frameOptions, ancestors)
    }
}
