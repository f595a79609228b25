/// What a report shows a reviewer about one exchange, already bounded and redacted.
package struct Evidence: Sendable, Hashable {
    /// The exact link sent (credential values redacted).
    package var link: String
    /// The handler's answer line, or a description of what came instead (redacted, bounded).
    package var answer: String
    /// An excerpt of the handler's stderr (redacted, bounded).
    package var stderr: String
    /// For cases with HTTP steps: each request and response, one entry per step (redacted, bounded).
    package var exchanges: [String]

    package init(link: String = "", answer: String = "", stderr: String = "", exchanges: [String] = []) {
        self.link = link
        self.answer = answer
        self.stderr = stderr
        self.exchanges = exchanges
    }

    /// Cuts text to `limit` UTF-8 bytes on a character boundary and says how much was cut.
    package static func bounded(_ text: String, limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var cut = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            if used + size > limit { break }
            cut.append(character)
            used += size
        }
        return cut + "\n… [truncated: \(text.utf8.count - used) more bytes]"
    }
}
