import AppFlipHTTP
import AppFlipModel
import AppFlipReference
import AppFlipReferenceServer
import AppFlipRunner
import Foundation

/// Turns the command line (and a target configuration file) into what a run talks to.
struct TargetAssembly {
    var targets: Targets
    var configuration: RunConfiguration
    /// The in-process reference server, kept alive for the run when `--target reference`.
    var referenceServer: HTTPServer?

    static let referenceSecret = "reference-secret"

    /// `--target reference`: the reference server on a loopback port, and the reference handler as a subprocess
    /// whose codes that server mints (so the end-to-end flip redeems them).
    static func reference(_ parsed: Arguments, mode: SubprocessTarget.Mode, seed: UInt64, scope: String,
                          redirectURI: String) throws(Arguments.UsageError) -> TargetAssembly {
        guard parsed.value(ifGiven: "--config") == nil, parsed.value(ifGiven: "--handler-url") == nil, !parsed.hasSeparator else {
            throw Arguments.UsageError(message: "--target reference cannot be combined with --config, --handler-url or a handler command")
        }
        let clientID = try parsed.value("--client-id") ?? ReferenceArguments.defaultClientID
        // A short code lifetime, so the code-expiry case waits seconds, not minutes.
        let settings = ReferenceServerConfiguration(clientID: clientID, clientSecret: referenceSecret, codeLifetime: 3,
                                                    tokenLifetime: 4)
        let reference = ReferenceServer(configuration: settings)
        let server: HTTPServer
        do {
            server = try HTTPServer(host: "127.0.0.1", port: 0, handler: reference.handler)
        } catch {
            throw Arguments.UsageError(message: "cannot start the reference server on loopback: \(error)")
        }
        server.start()
        let base = "http://127.0.0.1:\(server.port)"
        guard let executable = Bundle.main.executablePath else {
            throw Arguments.UsageError(message: "cannot locate this executable to start the reference handler")
        }
        let handler = SubprocessTarget(executable: executable,
                                       arguments: ["reference-handler", "--client-id", clientID, "--code-server", base + ReferenceServer.mintPath],
                                       mode: mode, label: "appflip-conformance reference-handler --client-id \(clientID)")
        let cookie = ReferenceServerConfiguration.userCookie
        // The reference native client: a private-use-scheme redirect in one-shot mode, a loopback listener in
        // persistent mode, so the main job's two runs cover both.
        let nativeClient = NativeClientTarget(executable: executable, arguments: ["reference-native-client", "--redirect", mode == .oneShot ? "scheme" : "loopback"])
        var targets = Targets(
            linkHandler: handler,
            endpoints: [.authorize: base + "/oauth/authorize", .token: base + "/oauth/token", .revoke: base + "/oauth/revoke",
                        .siteAssociation: base + "/.well-known/apple-app-site-association", .api: base + ReferenceServer.apiPath,
                        .metadata: base + ReferenceServer.metadataPath],
            clientSecret: referenceSecret, tokenAuthentication: .post,
            decorations: [.consent: [("Cookie", "\(cookie)=approver")], .deny: [("Cookie", "\(cookie)=refuser")],
                          .disabledAccount: [("Cookie", "\(cookie)=disabled")], .secondUser: [("Cookie", "\(cookie)=second")]],
            secondClient: (ReferenceServerConfiguration.secondClientID, ReferenceServerConfiguration.secondClientSecret))
        targets.nativeClient = nativeClient
        targets.absenceReasons[.linkSiteAssociation] = "the reference target's link host is a placeholder that no server answers "
            + "for; against a deployment the file is fetched from the link's own host"
        // The reference is driven through its real sign-in and consent pages, as a partner's production server
        // would be; its cookie test hook stays for the tests that use it.
        func script(_ user: String, press button: String) -> SignInScript {
            SignInScript(form: "#sign-in", fields: ["username": user, "password": user + "-password"], consentForm: "#consent",
                         consentButton: button)
        }
        targets.signIn = [.consent: script("approver", press: "approve"), .deny: script("refuser", press: "deny"),
                          .disabledAccount: script("disabled", press: "approve"), .secondUser: script("second", press: "approve")]
        var configuration = RunConfiguration(link: try parsed.value("--link") ?? "https://app.example/flip", clientID: clientID,
                                             scope: scope, redirectURI: redirectURI, seed: seed, projectID: settings.projectID,
                                             appID: settings.appID)
        configuration.codeLifetime = settings.codeLifetime
        configuration.tokenLifetime = settings.tokenLifetime
        configuration.throttlingProbe = true  // the reference's own server, which throttles
        configuration.narrowedScope = NarrowedScope(request: ReferenceServerConfiguration.narrowedScope.request,
                                                    granted: ReferenceServerConfiguration.narrowedScope.granted)
        configuration.nativeClient = NativeClient(id: ReferenceServerConfiguration.nativeClientID,
                                                  redirectURIs: ReferenceServerConfiguration.nativeRedirectURIs)
        return TargetAssembly(targets: targets, configuration: configuration, referenceServer: server)
    }

    /// A partner's target: flags, then the configuration file for whatever the flags leave out.
    static func partner(_ parsed: Arguments, mode: SubprocessTarget.Mode, seed: UInt64, scope flagScope: String?,
                        redirectURI: String) throws(Arguments.UsageError) -> TargetAssembly {
        var file: TargetConfiguration?
        if let path = try parsed.value("--config") {
            do {
                file = try TargetConfigurationLoader.load(path: path)
            } catch {
                throw Arguments.UsageError(message: "the target configuration has errors:\n" + error.description)
            }
        }
        guard let clientID = try parsed.value("--client-id") ?? file?.clientID else {
            throw Arguments.UsageError(message: "--client-id ID is required for your handler (or client_id in --config)")
        }
        var nativeClient: NativeClientTarget?
        if let program = try parsed.value("--native-client") {
            guard let executable = SubprocessTarget.resolve(program) else {
                throw Arguments.UsageError(message: "cannot find the native client executable '\(program)' (not found, not a file, or not executable)")
            }
            nativeClient = NativeClientTarget(executable: executable, arguments: parsed.values("--native-client-arg"))
        }
        // The link is the link handler's; a run of the native client alone needs none.
        let needsLink = parsed.hasSeparator || parsed.value(ifGiven: "--handler-url") != nil || file?.endpoints[.linkHandler] != nil
            || nativeClient == nil
        let link = try parsed.value("--link") ?? file?.link ?? ""
        if needsLink || !link.isEmpty {
            guard !link.isEmpty else { throw Arguments.UsageError(message: "--link URL is required for your handler (or link in --config)") }
            guard link.hasPrefix("https://"), link.count > 8, !link.contains("?"), !link.contains("#") else {
                throw Arguments.UsageError(message: "--link must be the https universal link without a query or fragment, e.g. https://app.example/flip")
            }
        }
        var linkHandler: (any LinkHandlerTarget)?
        let handlerURL = try parsed.value("--handler-url") ?? file?.endpoints[.linkHandler]
        if parsed.hasSeparator {
            guard handlerURL == nil || parsed.value(ifGiven: "--handler-url") == nil else {
                throw Arguments.UsageError(message: "--handler-url cannot be combined with a handler command after '--'")
            }
            guard let program = parsed.command.first else { throw Arguments.UsageError(message: "give the handler command after '--'") }
            guard let executable = SubprocessTarget.resolve(program) else {
                throw Arguments.UsageError(message: "cannot find the handler executable '\(program)' (not found, not a file, or not executable)")
            }
            linkHandler = SubprocessTarget(executable: executable, arguments: Array(parsed.command.dropFirst()), mode: mode,
                                           label: parsed.command.joined(separator: " "))
        } else if let handlerURL {
            guard let http = HTTPLinkHandlerTarget(url: handlerURL) else {
                throw Arguments.UsageError(message: "the handler URL must be an absolute http(s):// URL without userinfo, e.g. http://127.0.0.1:8080/link-handler")
            }
            linkHandler = http
        }
        var endpoints = file?.endpoints ?? [:]
        endpoints[.linkHandler] = nil
        for (endpoint, url) in endpoints.sorted(by: { $0.key.rawValue < $1.key.rawValue }) + (handlerURL.map { [(.linkHandler, $0)] } ?? []) {
            guard let (origin, _) = HTTPOrigin.split(url), origin.scheme == "http" || origin.scheme == "https" else {
                throw Arguments.UsageError(message: "the \(endpoint.rawValue) endpoint '\(url)' is not an absolute http(s) URL")
            }
            _ = origin
        }
        guard linkHandler != nil || !endpoints.isEmpty || nativeClient != nil else {
            throw Arguments.UsageError(message: "nothing to test: give --target reference, a handler command after '--', --handler-url, --native-client, "
                                       + "or --config with endpoints")
        }
        var targets = Targets(linkHandler: linkHandler, endpoints: endpoints, clientSecret: file?.clientSecret,
                              tokenAuthentication: file?.tokenAuthentication ?? .post, decorations: file?.decorations ?? [:],
                              secrets: file?.secrets ?? [], secondClient: file?.secondClient)
        targets.signIn = file?.signIn ?? [:]
        targets.signInOrigins = file?.signInOrigins ?? []
        targets.nativeClient = nativeClient
        var configuration = RunConfiguration(link: link, clientID: clientID, scope: flagScope ?? file?.scope ?? "devices",
                                             redirectURI: redirectURI, seed: seed, projectID: file?.projectID ?? "",
                                             appID: file?.appID ?? "")
        configuration.codeLifetime = file?.codeLifetime
        configuration.nativeClient = file?.nativeClient
        configuration.narrowedScope = file?.narrowedScope
        configuration.throttlingProbe = file?.throttlingProbe ?? false
        configuration.tokenLifetime = file?.tokenLifetime
        return TargetAssembly(targets: targets, configuration: configuration, referenceServer: nil)
    }
}

extension Arguments {
    /// The single value of an option, ignoring a repeat (for checks that only ask whether it was given).
    func value(ifGiven name: String) -> String? { values(name).first }
}
