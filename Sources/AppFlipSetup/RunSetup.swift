import AppFlipHTTP
import AppFlipLoading
import AppFlipModel
import AppFlipReferenceServer
import AppFlipRunner
import AppFlipSystem
import AppFlipTLS
import Foundation

/// What a run talks to (the link handler, the native client, the endpoints) and the run's configuration, set up from
/// a `TargetSpecification` for a partner's target, or as the reference (`RunSetup+Reference.swift`).
package struct RunSetup: Sendable {
    package var targets: TargetUnderTest
    package var configuration: RunConfiguration
    /// The in-process reference server, kept alive for the run when the target is the reference; stop it after.
    package var referenceServer: HTTPServer?
    /// The configuration's `target_label`: what the deployment or app version under test is called.
    package var targetLabel: String?
    /// The configuration's `target_version`.
    package var targetVersion: String?
    /// The configuration's `adapter_files`: pinned by digest like the adapters' own files.
    package var adapterFiles: [String] = []
    /// The configuration file's text (`--config`), for the evidence bundle; nil without one.
    package var configurationText: String?
    /// For the reference: the arguments that make an adapter mint its codes at the reference server (`--code-server
    /// URL`, and the CA that vouches for it over https), so they redeem.
    package var codeServerArguments: [String] = []

    package init(targets: TargetUnderTest, configuration: RunConfiguration, referenceServer: HTTPServer? = nil) {
        self.targets = targets
        self.configuration = configuration
        self.referenceServer = referenceServer
    }

    /// A partner's target: the request's own fields, then its configuration file for whatever they leave out.
    /// `environment` is where `handlerEnvironment`'s variables are read from (the suite's own, by default).
    package static func partner(
        _ request: TargetSpecification,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(SetupError) -> RunSetup {
        var file: TargetConfiguration?
        if let path = request.configurationFile {
            do {
                file = try TargetConfigurationLoader.load(path: path)
            } catch {
                throw SetupError("the target configuration has errors:", details: error.description.split(separator: "\n").map(String.init))
            }
        }
        let network = try network(caFile: request.caFile ?? file?.caFile, resolve: request.resolve + (file?.resolve ?? []))
        guard let clientID = request.clientID ?? file?.clientID else {
            throw SetupError("--client-id ID is required for your handler (or client_id in --config)")
        }
        // Variables every adapter gets besides the minimal environment, each value a secret of the run.
        let passed =
            try HandlerEnvironment.entries(request.handlerEnvironment, environment: environment)
            + (file?.handlerEnvironment ?? []).filter { entry in !request.handlerEnvironment.contains(entry.name) }
        let passedEnvironment = passed.map { "\($0.name)=\($0.value)" }
        let nativeClient = try nativeTarget(request, passedEnvironment: passedEnvironment)
        let androidHandler = try androidTarget(request, passedEnvironment: passedEnvironment, network: network)
        let link = try checkedLink(request, file: file, alone: nativeClient != nil || androidHandler != nil)
        let handlerURL = request.handlerURL ?? file?.endpoints[.linkHandler]
        let linkHandler = try linkHandlerTarget(request, handlerURL: handlerURL, passedEnvironment: passedEnvironment, network: network)
        var endpoints = file?.endpoints ?? [:]
        endpoints[.linkHandler] = nil
        for (endpoint, url) in endpoints.sorted(by: { $0.key.rawValue < $1.key.rawValue }) + (handlerURL.map { [(.linkHandler, $0)] } ?? []) {
            guard let (origin, _) = HTTPOrigin.split(url), origin.scheme == "http" || origin.scheme == "https" else {
                throw SetupError("the \(endpoint.rawValue) endpoint '\(url)' is not an absolute http(s) URL")
            }
        }
        guard linkHandler != nil || !endpoints.isEmpty || nativeClient != nil || androidHandler != nil else {
            throw SetupError(
                "nothing to test: give --target reference, a handler command after '--', --handler-url, --native-client, "
                    + "--android-handler, or --config with endpoints")
        }
        if !passed.isEmpty, request.handlerCommand == nil, request.nativeClient == nil, request.androidHandler == nil {
            throw SetupError(
                "--handler-env (or handler_env) passes variables to the adapters a run starts, and this run starts none "
                    + "(a handler URL or endpoints alone)")
        }
        let adapters: [AdapterContractKey: (any AdapterTarget)?] = [
            .linkHandler: linkHandler, .nativeApp: nativeClient, .androidActivity: androidHandler,
        ]
        var targets = TargetUnderTest(
            adapters: adapters.compactMapValues { $0 }, endpoints: endpoints, clientSecret: file?.clientSecret,
            tokenAuthentication: file?.tokenAuthentication ?? .post, decorations: file?.decorations ?? [:],
            secrets: (file?.secrets ?? []) + passed.map(\.value), secondClient: file?.secondClient)
        targets.signIn = file?.signIn ?? [:]
        targets.signInOrigins = file?.signInOrigins ?? []
        targets.network = network
        let configuration = try runConfiguration(request, file: file, link: link, clientID: clientID, android: androidHandler != nil)
        var setup = RunSetup(targets: targets, configuration: configuration, referenceServer: nil)
        setup.targetLabel = file?.targetLabel
        setup.targetVersion = file?.targetVersion
        setup.adapterFiles = file?.adapterFiles ?? []
        setup.configurationText = file?.text
        return setup
    }

    /// The reference's link handler and Android activity, minting their codes at `reference` (the native client is
    /// the caller's choice).
    static func referenceAdapters(
        _ handler: ReferenceHandler, reference: ReferenceServer, codeServer: [String],
        mode: SubprocessTarget.Mode
    ) -> [AdapterContractKey: any AdapterTarget] {
        [
            .linkHandler: referenceLinkHandler(handler, reference: reference, codeServer: codeServer, mode: mode),
            .androidActivity: referenceAndroidActivity(handler, reference: reference, codeServer: codeServer, mode: mode),
        ]
    }

    /// The run's configuration: the request's values first, then the configuration file's.
    private static func runConfiguration(
        _ request: TargetSpecification, file: TargetConfiguration?, link: String, clientID: String,
        android: Bool
    ) throws(SetupError) -> RunConfiguration {
        var configuration = RunConfiguration(
            link: link, clientID: clientID, scope: request.scope ?? file?.scope ?? "devices",
            redirectURI: request.redirectURI, seed: request.seed, projectID: file?.projectID ?? "",
            appID: file?.appID ?? "")
        configuration.codeLifetime = file?.codeLifetime
        configuration.nativeClient = file?.nativeClient
        configuration.narrowedScope = file?.narrowedScope
        configuration.neverNarrows = file?.neverNarrows ?? false
        configuration.throttlingProbe = file?.throttlingProbe ?? false
        configuration.tokenLifetime = file?.tokenLifetime
        configuration.android = try androidSettings(request, file: file, required: android)
        return configuration
    }
}

extension RunSetup {
    /// The run's network: a staging CA trusted and names pointed at addresses for every connection of the run (the
    /// preflight's included): `--ca-file` or `ca_file:`, then `--resolve` and `resolve:` (a flag's mapping wins over
    /// the file's for the same host and port).
    static func network(caFile: String?, resolve: [String]) throws(SetupError) -> Network {
        var trust = TLSTrust.system
        if let caFile {
            let pem: [UInt8]
            do {
                pem = try BoundedFile.read(caFile, limit: BoundedFile.caFileLimit)
            } catch {
                throw SetupError("the CA file cannot be used: \(error.message)")
            }
            do {
                trust = try TLSTrust(caFile: caFile, pem: pem)
            } catch {
                throw SetupError("the CA file cannot be used: \(error.message)")
            }
        }
        var mappings: [HostMapping.Entry] = []
        for text in resolve {
            guard let entry = HostMapping.Entry(parsing: text) else {
                throw SetupError("--resolve takes HOST:PORT:ADDRESS (curl's form, e.g. auth.example.com:443:127.0.0.1), not '\(text)'")
            }
            if !mappings.contains(where: { $0.host == entry.host && $0.port == entry.port }) { mappings.append(entry) }
        }
        return Network(hosts: HostMapping(mappings.reversed()), trust: trust)
    }
}
