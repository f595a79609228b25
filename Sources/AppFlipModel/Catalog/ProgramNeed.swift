/// Something a certification program needs the run's configuration to give, declared with the program in the catalog
/// (`needs:`), by the key a partner writes in the target configuration (`endpoints.api`, `sign_in.consent`,
/// `code_lifetime`). `run --certification` checks every need before it connects to anything, and a missing one is a
/// usage error that says what to write: a certification whose cases could not all be judged was never reachable.
///
/// Only what a server may not honestly lack is a need. What a conformant server may lack (RFC 8414 metadata, a scope
/// it ever narrows, a client ID with letters) is no need: its absence makes those cases not applicable.
package enum ProgramNeed: Sendable, Hashable {
    /// An endpoint URL (`endpoints.NAME`).
    case endpoint(Endpoint)
    /// Every configured endpoint over https (what only TLS carries: the certificate, HSTS, the TLS versions).
    case https
    /// How a scenario's user signs in through the real pages (`sign_in.SCENARIO`).
    case signIn(Scenario)
    /// A scenario's user, through `sign_in` or request headers (`scenarios`): the second approving account.
    case user(Scenario)
    /// A value of the configuration's top level (`client_secret_env`, `project_id`, `code_lifetime`, …).
    case value(Value)

    /// The top-level values a program can need.
    package enum Value: String, Sendable, Hashable, CaseIterable {
        case clientSecret = "client_secret_env"
        case projectID = "project_id"
        case appID = "app_id"
        case link
        case secondClient = "second_client_id"
        case codeLifetime = "code_lifetime"
        case tokenLifetime = "token_lifetime"
        case narrowedScope = "narrowed_scope"
        case throttlingProbe = "throttling_probe"
    }

    /// The values the docs and the example configuration show in place of a partner's own: a need given one of them
    /// is not met (`Conformance/examples/staging.target` and Documentation/Certification.md; a test holds this list against them).
    package static let placeholders: [Value: Set<String>] = [
        .appID: ["TEAMID.bundle", "ABCDE12345.com.example.smarthome"],
        .projectID: ["my-smart-home-project", "PROJECT_ID", "YOUR_PROJECT_ID"],
        .link: ["https://app.example.com/appflip"],
        .secondClient: ["conformance-other-client"],
    ]

    /// The key as the catalog and the target configuration write it.
    package var key: String {
        switch self {
        case .endpoint(let endpoint): "endpoints." + endpoint.rawValue
        case .https: "https"
        case .signIn(let scenario): "sign_in." + scenario.rawValue
        case .user(let scenario): scenario.rawValue
        case .value(let value): value.rawValue
        }
    }

    /// The need a catalog key names, or nil when it names none.
    package init?(key: String) {
        if key == "https" {
            self = .https
        } else if key.hasPrefix("endpoints."), let endpoint = Endpoint(rawValue: String(key.dropFirst("endpoints.".count))) {
            self = .endpoint(endpoint)
        } else if key.hasPrefix("sign_in."), let scenario = Scenario(rawValue: String(key.dropFirst("sign_in.".count))) {
            self = .signIn(scenario)
        } else if key == Scenario.secondUser.rawValue {
            self = .user(.secondUser)
        } else if let value = Value(rawValue: key) {
            self = .value(value)
        } else {
            return nil
        }
    }

    /// Every key a catalog may name, for its error messages.
    package static var keys: [String] {
        Endpoint.allCases.map { "endpoints." + $0.rawValue } + ["https"] + Scenario.allCases.map { "sign_in." + $0.rawValue }
            + [Scenario.secondUser.rawValue] + Value.allCases.map(\.rawValue)
    }

    /// What a partner writes under the key to meet it, and why the program needs it: the usage error's line and
    /// Documentation/Certification.md's table.
    package var whatToWrite: String {
        switch self {
        case .endpoint(.api):
            "any GET of your API that needs a valid access token (Google calls your API with the token it links)"
        case .endpoint(.siteAssociation):
            "your apple-app-site-association URL"
        case .endpoint(let endpoint):
            "your \(endpoint.rawValue) endpoint's URL"
        case .https:
            "https:// for every endpoint (production OAuth endpoints are TLS-only; give a staging CA with --ca-file)"
        case .signIn(let scenario):
            "how the '\(scenario.rawValue)' user signs in through your real pages (form, fields, consent_form, consent_button)"
        case .user:
            "under sign_in or scenarios: a second approving account (your API must tell two users apart)"
        case .value(.clientSecret): "the variable holding Google's client secret"
        case .value(.projectID): "the project in Google's redirect URI https://oauth-redirect.googleusercontent.com/r/PROJECT_ID"
        case .value(.appID): "TEAMID.bundle, the app the site association must list"
        case .value(.link): "your App Flip universal link"
        case .value(.secondClient): "with second_client_secret_env: another client registered at your server"
        case .value(.codeLifetime): "seconds an authorization code lives (the run waits it out)"
        case .value(.tokenLifetime): "seconds an access token works at your API (the run waits it out)"
        case .value(.narrowedScope):
            "{request, granted}, a request your server grants in part, or 'none' when it never grants part of a request"
        case .value(.throttlingProbe):
            "true (it sends up to 40 wrong secrets in a row under Google's client ID: point the run at staging)"
        }
    }
}
