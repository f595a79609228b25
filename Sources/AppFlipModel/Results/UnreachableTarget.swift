/// A target the run found it could not use before any case (an origin nobody answers on, an adapter that never
/// answered a first request): which one, and why. Its cases are not sent; the run says so once.
package struct UnreachableTarget: Hashable, Sendable {
    /// The origin, or the key of the adapter's contract (e.g. "the link handler").
    package var key: String
    /// Why it cannot be used, as the console and report.md say it.
    package var reason: String

    package init(key: String, reason: String) {
        self.key = key
        self.reason = reason
    }

    /// The message of a case that was not sent for it.
    package var caseMessage: String { "not sent: " + reason }
}
