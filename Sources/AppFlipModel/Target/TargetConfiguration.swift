/// Everything the suite knows about a partner's target: identities, endpoints, how Google authenticates, and the
/// per-scenario request decorations that log in a test user. Secrets come from the environment only.
package struct TargetConfiguration: Sendable {
    package enum ClientAuthentication: String, Sendable, Hashable, CaseIterable {
        /// client_id and client_secret in the form body (`client_secret_post`), as Google sends them.
        case post
        /// HTTP Basic (`client_secret_basic`).
        case basic
    }

    package var clientID: String
    /// The Android App Flip settings, when the configuration gives them (`android_action`, `android_package`, …).
    package var android: AndroidSettings?
    /// The client secret, read from the environment variable the file names.
    package var clientSecret: String?
    /// The Actions/Cloud project ID in Google's browser-linking redirect URI `…/r/<PROJECT_ID>`.
    package var projectID: String?
    /// `target_label`: what the deployment or app version under test is called; recorded in the reports, judged by nothing.
    package var targetLabel: String?
    /// `target_version`: the partner's build under test (a version, a commit), recorded in every report.
    package var targetVersion: String?
    /// `adapter_files`: every file the adapters depend on besides the ones their command lines name (a module a
    /// script imports, a signed-in session's helper), each hashed before the first case and after the last.
    package var adapterFiles: [String] = []
    /// The iOS app ID (`TEAMID.bundle`) the site association must list.
    package var appID: String?
    /// The App Flip universal link, without a query.
    package var link: String
    package var scope: String
    /// Endpoint URLs by kind; a profile whose endpoint is missing is skipped.
    package var endpoints: [Endpoint: String]
    package var tokenAuthentication: ClientAuthentication
    /// Request headers per scenario (a test user who approves, refuses, …).
    package var decorations: [Scenario: [(name: String, value: String)]]
    /// Every value that came from the environment, for redaction.
    package var secrets: [String]
    /// Another client registered at the partner, for "a code redeems only for its client" (optional).
    package var secondClient: (id: String, secret: String)?
    /// The declared authorization-code lifetime in seconds (`code_lifetime`), for the code-expiry case.
    package var codeLifetime: Double?
    /// Seconds an access token stays valid at the API (`token_lifetime`).
    package var tokenLifetime: Double?
    /// A public native client registered at the partner's server (`native_client_id`, `native_redirect_uris`).
    package var nativeClient: NativeClient?
    /// A scope request the server grants only in part (`narrowed_scope: {request, granted}`).
    package var narrowedScope: NarrowedScope?
    /// `narrowed_scope: none`: the server never grants part of a scope request.
    package var neverNarrows = false
    /// `throttling_probe: true`: the partner accepts a burst of wrong secrets under Google's client ID.
    package var throttlingProbe = false
    /// How each scenario's test user signs in through the real pages (`sign_in`), instead of request headers.
    package var signIn: [Scenario: SignInScript] = [:]
    /// Origins besides the authorization endpoint's that the sign-in may be redirected to (a separate login host).
    package var signInOrigins: [String] = []
    /// `ca_file`: a staging CA's certificates (PEM) trusted for https besides the system's store; a path relative to
    /// the configuration file, resolved.
    package var caFile: String?
    /// `resolve`: `HOST:PORT:ADDRESS` mappings (curl's form), checked for that form when read.
    package var resolve: [String] = []
    /// `handler_env`: variables of the suite's environment passed to every adapter the run starts, each read when the
    /// file is (an unset one is an error) and its value a secret.
    package var handlerEnvironment: [(name: String, value: String)] = []
    /// The file's text as read, for the evidence bundle (redacted there); nil for a configuration built in code.
    package var text: String?

    package init(
        clientID: String, clientSecret: String? = nil, projectID: String? = nil, appID: String? = nil, link: String,
        scope: String = "devices", endpoints: [Endpoint: String] = [:], tokenAuthentication: ClientAuthentication = .post,
        decorations: [Scenario: [(name: String, value: String)]] = [:], secrets: [String] = []
    ) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.projectID = projectID
        self.appID = appID
        self.link = link
        self.scope = scope
        self.endpoints = endpoints
        self.tokenAuthentication = tokenAuthentication
        self.decorations = decorations
        self.secrets = secrets + [clientSecret].compactMap { $0 }
        self.secondClient = nil
    }
}
