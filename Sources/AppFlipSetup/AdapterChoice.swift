import AppFlipHTTP
import AppFlipRunner

/// A JSON Lines adapter as a request names it: a program (started directly, never through a shell, in the run's
/// mode) or a URL, not both. Every such contract's adapter is chosen, and refused, by this one rule; the contract
/// gives the words its errors use and the request its preflight sends.
struct AdapterChoice {
    /// The program and its arguments, when given.
    var program: (name: String, arguments: [String])?
    var url: String?
    /// The error when both are given.
    var bothGiven: String
    /// How errors name the adapter ("handler" for the link handler; each contract its own).
    var role: String
    /// An example URL for the error about a malformed one.
    var exampleURL: String
    var preflightRequest: HandlerRequest

    /// The adapter, or nil when the request names none.
    func target(mode: SubprocessTarget.Mode, passedEnvironment: [String], network: Network) throws(SetupError) -> (any ExchangeTarget)? {
        if let program {
            guard url == nil else { throw SetupError(bothGiven) }
            var target = try subprocess(program.name, arguments: program.arguments, mode: mode)
            target.environment += passedEnvironment
            return target
        }
        guard let url else { return nil }
        guard let http = HTTPAdapterTarget(url: url, network: network) else {
            throw SetupError("the \(role) URL must be an absolute http(s):// URL without userinfo, e.g. \(exampleURL)")
        }
        return http
    }

    /// The program as a subprocess target (a path, or a name looked up on `PATH`).
    func subprocess(_ program: String, arguments: [String], mode: SubprocessTarget.Mode, label: String? = nil) throws(SetupError) -> SubprocessTarget
    {
        guard let executable = SubprocessTarget.resolve(program) else {
            throw SetupError("cannot find the \(role) executable '\(program)' (not found, not a file, or not executable)")
        }
        var target = SubprocessTarget(
            executable: executable, arguments: arguments, mode: mode, label: label ?? ([program] + arguments).joined(separator: " "))
        target.preflightRequest = preflightRequest
        return target
    }
}
