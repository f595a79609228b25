import AppFlipSetup
import Foundation

extension ConformanceTarget {
    /// Why the environment does not describe a target.
    public struct EnvironmentError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The variables `environment(_:)` reads (declared once, in `EnvironmentVariable`).
    public static let environmentVariables = EnvironmentVariable.allCases.map(\.rawValue)

    /// The target the environment points at, or nil when it names none (run against the reference then):
    /// - `APPFLIP_CONFIG`: a target configuration file (as `run --config`);
    /// - `APPFLIP_HANDLER`: the handler's command line as a JSON array of strings (`["./adapter", "--test-mode"]`),
    ///   started directly, never through a shell; or `APPFLIP_HANDLER_URL`: the handler's HTTP URL;
    /// - `APPFLIP_LINK` and `APPFLIP_CLIENT_ID`: the link and client ID (`--link`, `--client-id`), required with a
    ///   handler unless the configuration file gives them.
    /// - `APPFLIP_ANDROID_HANDLER` (a JSON array, as `APPFLIP_HANDLER`) or `APPFLIP_ANDROID_HANDLER_URL`: the Android
    ///   activity's adapter, with `APPFLIP_ANDROID_ACTION` and `APPFLIP_ANDROID_PACKAGE` (unless the configuration file
    ///   gives them) and `APPFLIP_CLIENT_ID`; alone, or beside any of the above.
    /// - `APPFLIP_ANDROID_ALLOWED_CALLERS`: the callers the activity allows, a JSON array of `PACKAGE=SHA256` strings
    ///   (as `run --android-allowed-caller`), with an Android handler.
    /// - `APPFLIP_HANDLER_ENV`: a JSON array of variable names passed to every adapter (as `run --handler-env`);
    /// - `APPFLIP_CA_FILE`: a staging CA to trust for https besides the system's store (as `run --ca-file`; it wins
    ///   over the configuration file's `ca_file`), with any of the above.
    /// - Throws: `EnvironmentError` when the variables are set but wrong (a malformed JSON array, a handler with no
    ///   link), so a mistyped setting fails loudly instead of silently testing the reference.
    public static func environment(_ variables: [String: String] = ProcessInfo.processInfo.environment) throws(EnvironmentError)
        -> ConformanceTarget?
    {
        func value(_ variable: EnvironmentVariable) -> String? { variables[variable.rawValue].flatMap { $0.isEmpty ? nil : $0 } }
        let config = value(.config)
        let handlerURL = value(.handlerURL)
        let command = try commandLine(value(.handler), named: .handler)
        if command != nil, handlerURL != nil {
            throw EnvironmentError(description: "give APPFLIP_HANDLER or APPFLIP_HANDLER_URL, not both")
        }
        let link = value(.link)
        let clientID = value(.clientID)
        let caFile = value(.caFile)
        let handlerEnvironment = try commandLine(value(.handlerEnvironment), named: .handlerEnvironment) ?? []
        let android = try Android(
            command: commandLine(value(.androidHandler), named: .androidHandler),
            url: value(.androidHandlerURL), action: value(.androidAction),
            package: value(.androidPackage),
            allowedCallers: commandLine(value(.androidAllowedCallers), named: .androidAllowedCallers),
            configured: config != nil)
        if let android, config == nil, command == nil, handlerURL == nil {
            guard let clientID else { throw EnvironmentError(description: "APPFLIP_CLIENT_ID is required with an Android handler") }
            var request = TargetSpecification()
            request.clientID = clientID
            request.caFile = caFile
            request.handlerEnvironment = handlerEnvironment
            android.apply(to: &request)
            return ConformanceTarget(.request(request))
        }
        guard config != nil || command != nil || handlerURL != nil else {
            if link != nil || clientID != nil || caFile != nil {
                throw EnvironmentError(
                    description: "APPFLIP_LINK, APPFLIP_CLIENT_ID and APPFLIP_CA_FILE need a target: APPFLIP_HANDLER, "
                        + "APPFLIP_HANDLER_URL or APPFLIP_CONFIG")
            }
            return nil
        }
        let given = link.flatMap { link in clientID.map { Link(link, clientID: $0) } }
        if config == nil, given == nil {
            throw EnvironmentError(description: "APPFLIP_LINK and APPFLIP_CLIENT_ID are required with APPFLIP_HANDLER or APPFLIP_HANDLER_URL")
        }
        let target: ConformanceTarget
        if let config {
            target = configuration(config, handlerCommand: command, handlerURL: handlerURL).overriding(link: link, clientID: clientID)
        } else if let command, let given {
            target = .command(command, link: given)
        } else if let handlerURL, let given {
            target = .url(handlerURL, link: given)
        } else {
            return nil
        }
        let trusting = caFile.map { target.trustingCA(file: $0) } ?? target
        let passing = handlerEnvironment.isEmpty ? trusting : trusting.passingEnvironment(handlerEnvironment)
        return android.map { passing.adding($0) } ?? passing
    }

    /// A command line given as a JSON array of non-empty strings, or nil when the variable is not set.
    private static func commandLine(_ text: String?, named variable: EnvironmentVariable) throws(EnvironmentError) -> [String]? {
        guard let text else { return nil }
        guard let data = text.data(using: .utf8), let array = try? JSONSerialization.jsonObject(with: data) as? [Any],
            let words = array as? [String], !words.isEmpty, words.allSatisfy({ !$0.isEmpty })
        else {
            throw EnvironmentError(
                description: "\(variable.rawValue) must be the handler's command line as a JSON array of non-empty strings, "
                    + "e.g. [\"./my-adapter\", \"--test-mode\"], not \(text)")
        }
        return words
    }

    /// The same target with the link or client ID replaced where given.
    func overriding(link: String?, clientID: String?) -> ConformanceTarget {
        editingRequest { request in
            if let link { request.link = link }
            if let clientID { request.clientID = clientID }
        }
    }
}
