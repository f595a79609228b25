import AppFlipHTTP
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
    package static func partner(_ request: TargetSpecification,
                                environment: [String: String] = ProcessInfo.processInfo.environment) throws(SetupError) -> RunSetup {
        var file: TargetConfiguration?
        if let path = request.configurationFile {
            do {
                file = try TargetConfigurationLoader.load(path: path)
            } catch {
                throw SetupError("the target configuration has errors:", details: error.description.split(separator: "\n").map(String.init))
            }
        }
        try trust(caFile: request.caFile ?? file?.caFile, resolve: request.resolve + (file?.resolve ?? []))
        guard let clientID = request.clientID ?? file?.clientID else {
            throw SetupError("--client-id ID is required for your handler (or client_id in --config)")
        }
        // Variables every adapter gets besides the minimal environment, each value a secret of the run.
        let passed = try HandlerEnvironment.entries(request.handlerEnvironment, environment: environment)
            + (file?.handlerEnvironment ?? []).filter { entry in !request.handlerEnvironment.contains(entry.name) }
        let passedEnvironment = passed.map { "\($0.name)=\($0.value)" }
        let nativeClient = try request.nativeClient.map { (program, arguments) throws(SetupError) in
            var target = try Self.nativeClient(program, arguments: arguments)
            target.environment += passedEnvironment
            return target
        }
        let androidHandler = try androidTarget(request, passedEnvironment: passedEnvironment)
        let link = try checkedLink(request, file: file, alone: nativeClient != nil || androidHandler != nil)
        let handlerURL = request.handlerURL ?? file?.endpoints[.linkHandler]
        let linkHandler = try linkHandlerTarget(request, handlerURL: handlerURL, passedEnvironment: passedEnvironment)
        var endpoints = file?.endpoints ?? [:]
        endpoints[.linkHandler] = nil
        for (endpoint, url) in endpoints.sorted(by: { $0.key.rawValue < $1.key.rawValue }) + (handlerURL.map { [(.linkHandler, $0)] } ?? []) {
            guard let (origin, _) = HTTPOrigin.split(url), origin.scheme == "http" || origin.scheme == "https" else {
                throw SetupError("the \(endpoint.rawValue) endpoint '\(url)' is not an absolute http(s) URL")
            }
        }
        guard linkHandler != nil || !endpoints.isEmpty || nativeClient != nil || androidHandler != nil else {
            throw SetupError("nothing to test: give --target reference, a handler command after '--', --handler-url, --native-client, "
                             + "--android-handler, or --config with endpoints")
        }
        if !passed.isEmpty, request.handlerCommand == nil, request.nativeClient == nil, request.androidHandler == nil {
            throw SetupError("--handler-env (or handler_env) passes variables to the adapters a run starts, and this run starts none "
                             + "(a handler URL or endpoints alone)")
        }
        var targets = TargetUnderTest(adapters: [.linkHandler: linkHandler, .nativeApp: nativeClient as (any AdapterTarget)?,
                                                         .androidActivity: androidHandler].compactMapValues { $0 },
                              endpoints: endpoints, clientSecret: file?.clientSecret,
                              tokenAuthentication: file?.tokenAuthentication ?? .post, decorations: file?.decorations ?? [:],
                              secrets: (file?.secrets ?? []) + passed.map(\.value), secondClient: file?.secondClient)
        targets.signIn = file?.signIn ?? [:]
        targets.signInOrigins = file?.signInOrigins ?? []
        let configuration = try runConfiguration(request, file: file, link: link, clientID: clientID, android: androidHandler != nil)
        var setup = RunSetup(targets: targets, configuration: configuration, referenceServer: nil)
        setup.targetLabel = file?.targetLabel
        return setup
    }

    /// The Android activity's adapter the request names: a program, or a URL (not both).
    private static func androidTarget(_ request: TargetSpecification, passedEnvironment: [String]) throws(SetupError) -> (any ExchangeTarget)? {
        var androidHandler: (any ExchangeTarget)? = try request.androidHandler.map { (program, arguments) throws(SetupError) in
            var target = try Self.androidHandler(program, arguments: arguments, mode: request.mode)
            target.environment += passedEnvironment
            return target
        }
        if let url = request.androidHandlerURL {
            guard androidHandler == nil else { throw SetupError("--android-handler-url cannot be combined with --android-handler") }
            guard let http = HTTPAdapterTarget(url: url) else {
                throw SetupError("the Android handler URL must be an absolute http(s):// URL without userinfo, e.g. http://127.0.0.1:8089/")
            }
            androidHandler = http
        }
        return androidHandler
    }

    /// The partner's universal link, checked; empty when only a native client or an Android handler runs (`alone`)
    /// and none was given.
    private static func checkedLink(_ request: TargetSpecification, file: TargetConfiguration?, alone: Bool) throws(SetupError) -> String {
        // The link is the link handler's; a run of the native client or the Android handler alone needs none.
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
    private static func linkHandlerTarget(_ request: TargetSpecification, handlerURL: String?,
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

    /// The run's configuration: the request's values first, then the configuration file's; an Android handler needs
    /// its action and package from one of them.
    private static func runConfiguration(_ request: TargetSpecification, file: TargetConfiguration?, link: String, clientID: String,
                                         android: Bool) throws(SetupError) -> RunConfiguration {
        var configuration = RunConfiguration(link: link, clientID: clientID, scope: request.scope ?? file?.scope ?? "devices",
                                             redirectURI: request.redirectURI, seed: request.seed, projectID: file?.projectID ?? "",
                                             appID: file?.appID ?? "")
        configuration.codeLifetime = file?.codeLifetime
        configuration.nativeClient = file?.nativeClient
        configuration.narrowedScope = file?.narrowedScope
        configuration.throttlingProbe = file?.throttlingProbe ?? false
        configuration.tokenLifetime = file?.tokenLifetime
        configuration.android = file?.android ?? AndroidSettings()
        if let action = request.androidAction { configuration.android.action = action }
        if let package = request.androidPackage { configuration.android.package = package }
        if !request.androidAllowedCallers.isEmpty {
            configuration.android.allowedCallers = try request.androidAllowedCallers.map { (entry) throws(SetupError) -> AndroidCaller in
                guard let caller = AndroidCaller(entry: entry) else {
                    throw SetupError("--android-allowed-caller takes PACKAGE=SHA256, the certificate's SHA-256 as 32 colon-separated hex pairs "
                                     + "(com.google.android.apps.chromecast.app=3D:7A:…), not '\(entry)'")
                }
                return caller
            }
        }
        if android, request.androidAction == nil, file?.android == nil {
            throw SetupError("--android-action ACTION is required for your Android handler (the App Flip intent action entered in the console), "
                             + "or android_action in --config")
        }
        if android, request.androidPackage == nil, file?.android == nil {
            throw SetupError("--android-package NAME is required for your Android handler (your app's package), or android_package in --config")
        }
        return configuration
    }

    /// The Android App Flip handler: a program (a path, or a name looked up on `PATH`) speaking the Android adapter
    /// contract, in the run's mode.
    package static func androidHandler(_ program: String, arguments: [String], mode: SubprocessTarget.Mode,
                                       label: String? = nil) throws(SetupError) -> SubprocessTarget {
        guard let executable = SubprocessTarget.resolve(program) else {
            throw SetupError("cannot find the Android handler executable '\(program)' (not found, not a file, or not executable)")
        }
        var target = SubprocessTarget(executable: executable, arguments: arguments, mode: mode, label: label ?? ([program] + arguments).joined(separator: " "))
        target.preflightRequest = HandlerRequest.androidPreflight
        return target
    }

    /// A native client program (a path, or a name looked up on `PATH`) and its arguments.
    package static func nativeClient(_ program: String, arguments: [String]) throws(SetupError) -> NativeClientTarget {
        guard let executable = SubprocessTarget.resolve(program) else {
            throw SetupError("cannot find the native client executable '\(program)' (not found, not a file, or not executable)")
        }
        return NativeClientTarget(executable: executable, arguments: arguments)
    }
}

extension RunSetup {
    /// Trusts a staging CA and points names at addresses for every connection of the run (the preflight's included):
    /// `--ca-file` or `ca_file:`, then `--resolve` and `resolve:` (a flag's mapping wins over the file's for the same
    /// host and port).
    static func trust(caFile: String?, resolve: [String]) throws(SetupError) {
        if let caFile {
            let pem: [UInt8]
            do {
                pem = try BoundedFile.read(caFile, limit: BoundedFile.caFileLimit)
            } catch {
                throw SetupError("the CA file cannot be used: \(error.message)")
            }
            do {
                try TLSTrust.trust(caFile: caFile, pem: pem)
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
        HostMapping.add(mappings.reversed())
    }
}
