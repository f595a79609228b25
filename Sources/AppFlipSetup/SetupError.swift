/// Why a target could not be set up: a missing or contradictory setting, an unreadable configuration, a program that
/// cannot be found. The message is a sentence for the user; nothing has run.
package struct SetupError: Error, Sendable, CustomStringConvertible {
    package var message: String
    /// Lines that follow the message, each printed on its own (a configuration file's diagnostics, with their line and
    /// caret).
    package var details: [String]

    package init(_ message: String, details: [String] = []) {
        self.message = message
        self.details = details
    }

    /// The message and its details, a line each.
    package var description: String { ([message] + details).joined(separator: "\n") }
}
