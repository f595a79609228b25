import AppFlipModel
import Foundation

/// Variables passed from the suite's environment to every adapter a run starts (`--handler-env NAME`,
/// `handler_env:` in the configuration, `APPFLIP_HANDLER_ENV`, `ConformanceTarget.passingEnvironment(_:)`), for what
/// a test adapter needs and must not show: a staging session, a test user's password. Each value is a secret,
/// redacted everywhere the run writes; hurl's `--secret` is the model.
package enum HandlerEnvironment {
    /// `NAME=value` for each name, read from `environment`; an unset, empty or too short value, a malformed name, or
    /// the suite's own process mark is an error.
    package static func entries(_ names: [String], environment: [String: String]) throws(SetupError) -> [(name: String, value: String)] {
        var entries: [(name: String, value: String)] = []
        for name in names where !entries.contains(where: { $0.name == name }) {
            guard let first = name.unicodeScalars.first, first == "_" || CharacterSet.letters.contains(first), first.isASCII,
                  name.unicodeScalars.allSatisfy({ $0.isASCII && ($0 == "_" || CharacterSet.alphanumerics.contains($0)) }) else {
                throw SetupError("--handler-env takes the name of an environment variable (letters, digits and '_'), not '\(name)'")
            }
            guard !name.hasPrefix("APPFLIP_CONFORMANCE") else {
                throw SetupError("--handler-env \(name): the suite sets that variable itself for every adapter")
            }
            guard let value = environment[name], !value.isEmpty else {
                throw SetupError("--handler-env \(name): the environment variable \(name) is not set (the suite passes its value to every adapter)")
            }
            guard value.utf8.count >= minimumLength else {
                throw SetupError("--handler-env \(name): its value is shorter than \(minimumLength) bytes, too short to be told apart from other "
                                 + "text and redacted; pass a longer value")
            }
            entries.append((name, value))
        }
        return entries
    }

    /// The shortest value the redaction can find in any text.
    package static let minimumLength = 4
}
