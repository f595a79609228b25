import AppFlipModel
import AppFlipReferenceServer
import AppFlipRunner

/// Setting up the link handler from a request: a command after `--` or a URL, and the universal link it is sent.
extension RunSetup {
    /// The partner's universal link, checked; empty when only other adapters run (`alone`)
    /// and none was given.
    static func checkedLink(_ request: TargetSpecification, file: TargetConfiguration?, alone: Bool) throws(SetupError) -> String {
        // The link is the link handler's; a run of other adapters alone needs none.
        let needsLink = request.handlerCommand != nil || request.handlerURL != nil || file?.endpoints[.linkHandler] != nil
            || !alone
        let link = request.link ?? file?.link ?? ""
        if needsLink || !link.isEmpty {
            guard !link.isEmpty else { throw SetupError("--link URL is required for your handler (or link in --config)") }
            guard link.hasPrefix("https://"), link.count > 8, !link.contains("?"), !link.contains("#") else {
                throw SetupError("--link must be the https universal link without a query or fragment, e.g. https://app.example/flip")
            }
        }
        return link
    }

    /// The link handler the request names: a command after `--`, or a URL (the flag's or the configuration's).
    static func linkHandlerTarget(_ request: TargetSpecification, handlerURL: String?,
                                          passedEnvironment: [String]) throws(SetupError) -> (any ExchangeTarget)? {
        var linkHandler: (any ExchangeTarget)?
        if let command = request.handlerCommand {
            guard request.handlerURL == nil else {
                throw SetupError("--handler-url cannot be combined with a handler command after '--'")
            }
            guard let program = command.first else { throw SetupError("give the handler command after '--'") }
            guard let executable = SubprocessTarget.resolve(program) else {
                throw SetupError("cannot find the handler executable '\(program)' (not found, not a file, or not executable)")
            }
            var subprocess = SubprocessTarget(executable: executable, arguments: Array(command.dropFirst()), mode: request.mode,
                                              label: command.joined(separator: " "))
            subprocess.environment += passedEnvironment
            linkHandler = subprocess
        } else if let handlerURL {
            guard let http = HTTPAdapterTarget(url: handlerURL) else {
                throw SetupError("the handler URL must be an absolute http(s):// URL without userinfo, e.g. http://127.0.0.1:8080/link-handler")
            }
            linkHandler = http
        }
        return linkHandler
    }

    /// The reference link handler: the suite's own executable's `reference-handler`, or the handler in-process, minting
    /// its codes at the reference server.
    static func referenceLinkHandler(_ handler: ReferenceHandler, reference: ReferenceServer, codeServer: [String],
                                     mode: SubprocessTarget.Mode) -> any ExchangeTarget {
        let clientID = reference.configuration.clientID
        switch handler {
        case .subprocess(let executable):
            return SubprocessTarget(executable: executable, arguments: ["reference-handler", "--client-id", clientID] + codeServer,
                                    mode: mode, label: "appflip-conformance reference-handler --client-id \(clientID)")
        case .inProcess:
            return InProcessTarget(handler: reference.linkHandler)
        }
    }
}
