/// Why a target could not be set up: a missing or contradictory setting, an unreadable configuration, a program that
/// cannot be found. The message is a sentence for the user; nothing has run.
package struct SetupError: Error, Sendable {
    package var message: String

    package init(_ message: String) {
        self.message = message
    }
}
