/// What a report shows a reviewer about one exchange, already bounded and redacted.
package struct Evidence: Sendable, Hashable {
    /// The exact link sent (credential values redacted).
    package var link: String
    /// The handler's answer line, or a description of what came instead (redacted, bounded).
    package var answer: String
    /// An excerpt of the handler's stderr (redacted, bounded).
    package var stderr: String
    /// For cases with HTTP or native steps: each exchange, one entry per step (redacted, bounded).
    package var exchanges: [Exchange]

    /// Nothing recorded.
    package var isEmpty: Bool { link.isEmpty && answer.isEmpty && stderr.isEmpty && exchanges.isEmpty }

    package init(link: String = "", answer: String = "", stderr: String = "", exchanges: [Exchange] = []) {
        self.link = link
        self.answer = answer
        self.stderr = stderr
        self.exchanges = exchanges
    }
}
