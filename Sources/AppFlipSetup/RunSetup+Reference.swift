import AppFlipHTTP
import AppFlipModel
import AppFlipReference
import AppFlipReferenceServer
import AppFlipRunner
import AppFlipSystem
import AppFlipTLS

extension RunSetup {
    /// How the reference link handler runs.
    package enum ReferenceHandler: Sendable {
        /// `EXECUTABLE reference-handler …` as a subprocess (the command line's own binary), in the request's mode.
        case subprocess(executable: String)
        /// Called in-process: no process, no JSON (the library and the tests).
        case inProcess
    }

    package static let referenceSecret = "reference-secret"
    package static let referenceLink = "https://app.example/flip"

    /// The reference: its server on a loopback port, over https where this build speaks TLS itself (a CA made in
    /// memory for this run, trusted by this run alone, nothing written to any trust store), and its link handler,
    /// whose codes that server mints (so the end-to-end flip redeems them). `nativeClient` is the reference native
    /// client when one can be started. With `answersLinkHost`, the link's own host (`app.example:443`) is pointed at
    /// the server in this run's network (`HostMapping`), so the site association is fetched there as Apple's CDN
    /// fetches it.
    package static func reference(
        _ request: TargetSpecification, handler: ReferenceHandler,
        nativeClient: NativeClientTarget?, answersLinkHost: Bool = false
    ) throws(SetupError) -> RunSetup {
        let clientID = request.clientID ?? ReferenceArguments.defaultClientID
        // A short code lifetime, so the code-expiry case waits seconds, not minutes.
        let settings = ReferenceServerConfiguration(
            clientID: clientID, clientSecret: referenceSecret, codeLifetime: 3,
            tokenLifetime: 4)
        let reference = ReferenceServer(configuration: settings)
        let linkHost = HTTPOrigin.split(request.link ?? referenceLink)?.origin.host ?? "app.example"
        let server: HTTPServer
        var authority: CertificateAuthority?
        var trust = TLSTrust.system
        do {
            var identity: TLSServerIdentity?
            if TLSTrust.isAvailable {
                let made = try CertificateAuthority(name: "AppFlip Conformance reference CA (this run only)")
                identity = try made.serverIdentity(for: ["127.0.0.1", "localhost", linkHost])
                trust = trust.adding(pem: made.pem)
                authority = made
            }
            server = try HTTPServer(host: "127.0.0.1", port: 0, tls: identity, handler: reference.handler)
        } catch {
            throw SetupError("cannot start the reference server on loopback: \(error)")
        }
        server.start()
        let base = "\(server.scheme)://127.0.0.1:\(server.port)"
        // The adapters mint codes at this server over https: they are given the CA that vouches for it.
        let codeServer = ["--code-server", base + ReferenceServer.mintPath] + (authority.map { ["--code-server-ca", $0.pem] } ?? [])
        let cookie = ReferenceServerConfiguration.userCookie
        var targets = TargetUnderTest(
            adapters: referenceAdapters(handler, reference: reference, codeServer: codeServer, mode: request.mode),
            endpoints: [
                .authorize: base + "/oauth/authorize", .token: base + "/oauth/token", .revoke: base + "/oauth/revoke",
                .siteAssociation: base + "/.well-known/apple-app-site-association", .api: base + ReferenceServer.apiPath,
                .metadata: base + ReferenceServer.metadataPath,
            ],
            clientSecret: referenceSecret, tokenAuthentication: .post,
            decorations: [
                .consent: [("Cookie", "\(cookie)=approver")], .deny: [("Cookie", "\(cookie)=refuser")],
                .disabledAccount: [("Cookie", "\(cookie)=disabled")], .secondUser: [("Cookie", "\(cookie)=second")],
            ],
            secondClient: (ReferenceServerConfiguration.secondClientID, ReferenceServerConfiguration.secondClientSecret))
        targets.adapters[.nativeApp] = nativeClient
        if answersLinkHost, server.scheme == "https" {
            targets.network.hosts.add([HostMapping.Entry(host: linkHost, port: 443, address: "127.0.0.1", targetPort: server.port)])
            targets.endpoints[.linkSiteAssociation] = "https://\(linkHost)/.well-known/apple-app-site-association"
        } else {
            targets.absenceReasons[.linkSiteAssociation] =
                "the reference target's link host is a placeholder that no server answers "
                + "for here; against a deployment the file is fetched from the link's own host"
        }
        targets.network.trust = trust
        targets.signIn = referenceSignIn
        let configuration = referenceConfiguration(request, clientID: clientID, settings: settings)
        var setup = RunSetup(targets: targets, configuration: configuration, referenceServer: server)
        setup.codeServerArguments = codeServer
        return setup
    }

    /// The reference is driven through its real sign-in and consent pages, as a partner's production server would
    /// be; its cookie test hook stays for the tests that use it.
    private static var referenceSignIn: [Scenario: SignInScript] {
        func script(_ user: String, press button: String) -> SignInScript {
            SignInScript(
                form: "#sign-in", fields: ["username": user, "password": user + "-password"], consentForm: "#consent",
                consentButton: button)
        }
        return [
            .consent: script("approver", press: "approve"), .deny: script("refuser", press: "deny"),
            .disabledAccount: script("disabled", press: "approve"), .secondUser: script("second", press: "approve"),
        ]
    }

    /// The run's configuration against the reference: its lifetimes, its narrowed scope, its native client.
    private static func referenceConfiguration(
        _ request: TargetSpecification, clientID: String,
        settings: ReferenceServerConfiguration
    ) -> RunConfiguration {
        var configuration = RunConfiguration(
            link: request.link ?? referenceLink, clientID: clientID, scope: request.scope ?? "devices",
            redirectURI: request.redirectURI, seed: request.seed, projectID: settings.projectID,
            appID: settings.appID)
        configuration.codeLifetime = settings.codeLifetime
        configuration.tokenLifetime = settings.tokenLifetime
        configuration.throttlingProbe = true  // the reference's own server, which throttles
        configuration.narrowedScope = NarrowedScope(
            request: ReferenceServerConfiguration.narrowedScope.request,
            granted: ReferenceServerConfiguration.narrowedScope.granted)
        configuration.nativeClient = NativeClient(
            id: ReferenceServerConfiguration.nativeClientID,
            redirectURIs: ReferenceServerConfiguration.nativeRedirectURIs)
        return configuration
    }
}
