import Foundation

extension ConformanceTarget {
    /// Why the environment does not describe a target.
    public struct EnvironmentError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The variables `environment(_:)` reads.
    public static let environmentVariables = ["APPFLIP_CONFIG", "APPFLIP_HANDLER", "APPFLIP_HANDLER_URL", "APPFLIP_LINK", "APPFLIP_CLIENT_ID"]

    /// The target the environment points at, or nil when it names none (run against the reference then):
    /// - `APPFLIP_CONFIG`: a target configuration file (as `run --config`);
    /// - `APPFLIP_HANDLER`: the handler's command line as a JSON array of strings (`["./adapter", "--test-mode"]`),
    ///   started directly, never through a shell; or `APPFLIP_HANDLER_URL`: the handler's HTTP URL;
    /// - `APPFLIP_LINK` and `APPFLIP_CLIENT_ID`: the link and client ID (`--link`, `--client-id`), required with a
    ///   handler unless the configuration file gives them.
    /// - Throws: `EnvironmentError` when the variables are set but wrong (a malformed JSON array, a handler with no
    ///   link), so a mistyped setting fails loudly instead of silently testing the reference.
    public static func environment(_ variables: [String: String] = ProcessInfo.processInfo.environment) throws(EnvironmentError)
        -> ConformanceTarget? {
        func value(_ name: String) -> String? { variables[name].flatMap { $0.isEmpty ? nil : $0 } }
        let config = value("APPFLIP_CONFIG")
        let handlerURL = value("APPFLIP_HANDLER_URL")
        var command: [String]?
        if let text = value("APPFLIP_HANDLER") {
            guard let data = text.data(using: .utf8), let array = try? JSONSerialization.jsonObject(with: data) as? [Any],
                  let words = array as? [String], !words.isEmpty, words.allSatisfy({ !$0.isEmpty }) else {
                throw EnvironmentError(description: "APPFLIP_HANDLER must be the handler's command line as a JSON array of non-empty strings, "
                                       + "e.g. [\"./my-adapter\", \"--test-mode\"], not \(text)")
            }
            command = words
        }
        if command != nil, handlerURL != nil {
            throw EnvironmentError(description: "give APPFLIP_HANDLER or APPFLIP_HANDLER_URL, not both")
        }
        let link = value("APPFLIP_LINK")
        let clientID = value("APPFLIP_CLIENT_ID")
        guard config != nil || command != nil || handlerURL != nil else {
            if link != nil || clientID != nil {
                throw EnvironmentError(description: "APPFLIP_LINK and APPFLIP_CLIENT_ID need a target: APPFLIP_HANDLER, APPFLIP_HANDLER_URL or APPFLIP_CONFIG")
            }
            return nil
        }
        let given = link.flatMap { link in clientID.map { Link(link, clientID: $0) } }
        if config == nil, given == nil {
            throw EnvironmentError(description: "APPFLIP_LINK and APPFLIP_CLIENT_ID are required with APPFLIP_HANDLER or APPFLIP_HANDLER_URL")
        }
        if let config {
            return configuration(config, handlerCommand: command, handlerURL: handlerURL).overriding(link: link, clientID: clientID)
        }
        if let command, let given { return .command(command, link: given) }
        if let handlerURL, let given { return .url(handlerURL, link: given) }
        return nil
    }

    /// The same target with the link or client ID replaced where given.
    func overriding(link: String?, clientID: String?) -> ConformanceTarget {
        guard case .request(var request) = kind else { return self }
        if let link { request.link = link }
        if let clientID { request.clientID = clientID }
        var target = ConformanceTarget(.request(request))
        target.timeout = timeout
        return target
    }
}
