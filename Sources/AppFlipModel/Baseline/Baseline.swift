import AppFlipSyntax

/// Known failures a partner accepts for now (`--baseline FILE`), each with a reason and an expiry date. A listed
/// failure is reported as known and does not fail the run until its entry expires; an entry whose failure no
/// longer happens, or that has expired, fails the run, so a baseline can only shrink (as the OpenID Foundation's
/// expected-failures files work). A certification run takes no baseline.
public struct Baseline: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        /// What the entry covers: every failing check of a requirement, or one case's failure (or error).
        public enum Subject: Sendable, Hashable, CustomStringConvertible {
            case requirement(String)
            case conformanceCase(String)

            public var description: String {
                switch self {
                case .requirement(let id): "requirement \(id)"
                case .conformanceCase(let id): "case \(id)"
                }
            }
        }

        public var subject: Subject
        public var reason: String
        /// The last day (UTC, `YYYY-MM-DD`) the entry holds.
        public var expires: String
        public var location: SourceLocation

        public init(subject: Subject, reason: String, expires: String, location: SourceLocation) {
            self.subject = subject
            self.reason = reason
            self.expires = expires
            self.location = location
        }

        /// Whether the entry has expired on `today` (`YYYY-MM-DD`): it holds through its expiry day.
        public func isExpired(on today: String) -> Bool { expires < today }

        /// `requirement AF-LINK-010 (baseline.txt:3, until 2027-01-31: reason)`.
        public var summary: String { "\(subject) (\(location.file):\(location.line), until \(expires): \(reason))" }
    }

    public var entries: [Entry]
    /// The file the baseline came from, as given.
    public var path: String

    public init(entries: [Entry], path: String) {
        self.entries = entries
        self.path = path
    }
}
