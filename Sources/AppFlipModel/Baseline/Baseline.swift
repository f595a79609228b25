import AppFlipSyntax

/// Known failures a partner accepts for now (`--baseline FILE`), each with a reason and an expiry date. A listed
/// failure is reported as known and does not fail the run until its entry expires; an entry whose failure no
/// longer happens, or that has expired, fails the run, so a baseline can only shrink (as the OpenID Foundation's
/// expected-failures files work). A certification run takes no baseline.
package struct Baseline: Sendable, Hashable {
    package struct Entry: Sendable, Hashable {
        /// What the entry covers: every failing check of a requirement, or one case's failure (or error).
        package enum Subject: Sendable, Hashable, CustomStringConvertible {
            case requirement(String)
            case conformanceCase(String)

            package var description: String {
                switch self {
                case .requirement(let id): "requirement \(id)"
                case .conformanceCase(let id): "case \(id)"
                }
            }
        }

        package var subject: Subject
        package var reason: String
        /// The last day (UTC, `YYYY-MM-DD`) the entry holds.
        package var expires: String
        package var location: SourceLocation

        package init(subject: Subject, reason: String, expires: String, location: SourceLocation) {
            self.subject = subject
            self.reason = reason
            self.expires = expires
            self.location = location
        }

        /// Whether the entry has expired on `today` (`YYYY-MM-DD`): it holds through its expiry day.
        package func isExpired(on today: String) -> Bool { expires < today }

        /// `requirement AF-LINK-010 (baseline.txt:3, until 2027-01-31: reason)`.
        package var summary: String { "\(subject) (\(location.file):\(location.line), until \(expires): \(reason))" }
    }

    package var entries: [Entry]
    /// The file the baseline came from, as given.
    package var path: String
    /// The file's bytes as read (an evidence bundle carries them, so `verify` can judge the run again with them).
    package var bytes: [UInt8]

    package init(entries: [Entry], path: String, bytes: [UInt8] = []) {
        self.entries = entries
        self.path = path
        self.bytes = bytes
    }
}
