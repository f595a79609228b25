import AppFlipHTTP
import AppFlipModel
import AppFlipReferenceServer
import AppFlipRunner

/// Setting up the link handler from a request: a command after `--` or a URL, and the universal link it is sent.
extension RunSetup {
    /// The partner's universal link, checked; empty when only other adapters run (`alone`)
    /// and none was given.
    static func checkedLink(_ request: TargetSpecification, file: TargetConfiguration?, alone: Bool) throws(SetupError) -> String {
        // The link is the link handler's; a run of other adapters alone needs none.
        let needsLink =
            request.handlerCommand != nil || request.handlerURL != nil || file?.endpoints[.linkHandler] != nil
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
    static func linkHandlerTarget(
        _ request: TargetSpecification, handlerURL: String?,
        passedEnvironment: [String], network: Network
    ) throws(SetupError) -> (any ExchangeTarget)? {
        if let command = request.handlerCommand, command.isEmpty { throw SetupError("give the handler command after '--'") }
        let choice = AdapterChoice(
            program: request.handlerCommand?.first.map { ($0, Array(request.handlerCommand?.dropFirst() ?? [])) },
            // A command wins over the configuration's URL; only the flag's conflicts with it.
            url: request.handlerCommand == nil ? handlerURL : request.handlerURL,
            bothGiven: "--handler-url cannot be combined with a handler command after '--'",
            role: "handler", exampleURL: "http://127.0.0.1:8080/link-handler", preflightRequest: .linkPreflight)
        return try choice.target(mode: request.mode, passedEnvironment: passedEnvironment, network: network)
    }

    /// The reference link handler: the suite's own executable's `reference-handler`, or the handler in-process, minting
    /// its codes at the reference server.
    static func referenceLinkHandler(
        _ handler: ReferenceHandler, reference: ReferenceServer, codeServer: [String],
        mode: SubprocessTarget.Mode
    ) -> any ExchangeTarget {
        let clientID = reference.configuration.clientID
        switch handler {
        case .subprocess(let executable):
            return SubprocessTarget(
                executable: executable, arguments: ["reference-handler", "--client-id", clientID] + codeServer,
                mode: mode, label: "appflip-conformance reference-handler --client-id \(clientID)")
        case .inProcess:
            return InProcessTarget(handler: reference.linkHandler)
        }
    }
}
