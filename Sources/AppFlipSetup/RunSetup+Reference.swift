import AppFlipHTTP
import AppFlipModel
import AppFlipReference
import AppFlipReferenceServer
import AppFlipRunner

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

    /// The reference: its server on a loopback port, and its link handler, whose codes that server mints (so the
    /// end-to-end flip redeems them). `nativeClient` is the reference native client when one can be started.
    package static func reference(_ request: TargetSpecification, handler: ReferenceHandler,
                                  nativeClient: NativeClientTarget?) throws(SetupError) -> RunSetup {
        let clientID = request.clientID ?? ReferenceArguments.defaultClientID
        // A short code lifetime, so the code-expiry case waits seconds, not minutes.
        let settings = ReferenceServerConfiguration(clientID: clientID, clientSecret: referenceSecret, codeLifetime: 3,
                                                    tokenLifetime: 4)
        let reference = ReferenceServer(configuration: settings)
        let server: HTTPServer
        do {
            server = try HTTPServer(host: "127.0.0.1", port: 0, handler: reference.handler)
        } catch {
            throw SetupError("cannot start the reference server on loopback: \(error)")
        }
        server.start()
        let base = "http://127.0.0.1:\(server.port)"
        let linkHandler: any LinkHandlerTarget
        switch handler {
        case .subprocess(let executable):
            linkHandler = SubprocessTarget(executable: executable,
                                           arguments: ["reference-handler", "--client-id", clientID, "--code-server", base + ReferenceServer.mintPath],
                                           mode: request.mode, label: "appflip-conformance reference-handler --client-id \(clientID)")
        case .inProcess:
            linkHandler = InProcessTarget(handler: reference.linkHandler)
        }
        let cookie = ReferenceServerConfiguration.userCookie
        var targets = TargetUnderTest(
            linkHandler: linkHandler,
            endpoints: [.authorize: base + "/oauth/authorize", .token: base + "/oauth/token", .revoke: base + "/oauth/revoke",
                        .siteAssociation: base + "/.well-known/apple-app-site-association", .api: base + ReferenceServer.apiPath,
                        .metadata: base + ReferenceServer.metadataPath],
            clientSecret: referenceSecret, tokenAuthentication: .post,
            decorations: [.consent: [("Cookie", "\(cookie)=approver")], .deny: [("Cookie", "\(cookie)=refuser")],
                          .disabledAccount: [("Cookie", "\(cookie)=disabled")], .secondUser: [("Cookie", "\(cookie)=second")]],
            secondClient: (ReferenceServerConfiguration.secondClientID, ReferenceServerConfiguration.secondClientSecret))
        targets.nativeClient = nativeClient
        if case .subprocess(let executable) = handler {
            var android = SubprocessTarget(executable: executable,
                                           arguments: ["reference-android-handler", "--client-id", clientID, "--code-server", base + ReferenceServer.mintPath],
                                           mode: request.mode, label: "appflip-conformance reference-android-handler --client-id \(clientID)")
            android.preflightRequest = SubprocessTarget.androidPreflight
            targets.androidHandler = android
        } else {
            targets.androidHandler = InProcessAndroidTarget(handler: AndroidActivity(clientID: clientID, mintCode: reference.linkHandler.mintCode))
        }
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
        var configuration = RunConfiguration(link: request.link ?? referenceLink, clientID: clientID, scope: request.scope ?? "devices",
                                             redirectURI: request.redirectURI, seed: request.seed, projectID: settings.projectID,
                                             appID: settings.appID)
        configuration.codeLifetime = settings.codeLifetime
        configuration.tokenLifetime = settings.tokenLifetime
        configuration.throttlingProbe = true  // the reference's own server, which throttles
        configuration.narrowedScope = NarrowedScope(request: ReferenceServerConfiguration.narrowedScope.request,
                                                    granted: ReferenceServerConfiguration.narrowedScope.granted)
        configuration.nativeClient = NativeClient(id: ReferenceServerConfiguration.nativeClientID,
                                                  redirectURIs: ReferenceServerConfiguration.nativeRedirectURIs)
        configuration.android = AndroidSettings()
        return RunSetup(targets: targets, configuration: configuration, referenceServer: server)
    }
}
