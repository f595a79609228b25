import AppFlipModel
import Foundation

/// Variables passed from the suite's environment to every adapter a run starts (`--handler-env NAME`,
/// `handler_env:` in the configuration, `APPFLIP_HANDLER_ENV`, `ConformanceTarget.passingEnvironment(_:)`), for what
/// a test adapter needs and must not show: a staging session, a test user's password. Each value is a secret,
/// redacted everywhere the run writes; hurl's `--secret` is the model.
package enum HandlerEnvironment {
    /// `NAME=value` for each name, read from `environment`; whatever `HandlerEnvironmentRule` refuses is an error.
    package static func entries(_ names: [String], environment: [String: String]) throws(SetupError) -> [(name: String, value: String)] {
        var entries: [(name: String, value: String)] = []
        for name in names where !entries.contains(where: { $0.name == name }) {
            if let problem = HandlerEnvironmentRule.problem(name: name, value: environment[name]) {
                throw SetupError(problem.hasPrefix("takes ") ? "--handler-env " + problem : "--handler-env \(name): " + problem)
            }
            entries.append((name, environment[name] ?? ""))
        }
        return entries
    }
}
