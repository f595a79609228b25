import AppFlipSyntax

/// One step of a case: send something to the target, capture values from the answer, judge it.
package struct Step: Sendable, Hashable {
    package enum Action: Sendable, Hashable {
        /// Send a link to the link handler (adapter contract).
        case link(LinkRecipe)
        /// Send an HTTP request to one of the configured endpoints. Boxed (`indirect`): the request is three times
        /// the size of a link recipe, and every link step would otherwise carry its room.
        indirect case http(HTTPStepRequest)
        /// Drive the native app (native-client profile) against the suite's test authorization server.
        case native(NativeStep)
        /// Start the partner's activity for a result (the activity's adapter contract).
        case intent(IntentRecipe)
        /// Hand a registered adapter contract its request (`AdapterRequest`): a contract besides the suite's own.
        case adapter(AdapterRequest)
    }

    package var action: Action
    /// Values taken from the answer for later steps: `${captured.NAME}`.
    package var captures: [Capture]
    package var checks: [CheckGroup]
    package var location: SourceLocation
    /// How many times the step is sent (for samples: distinct codes, entropy). Checks must hold every time.
    package var repeatCount: Int
    /// Names an earlier step may leave uncaptured because the sources allow an answer without them (a server that
    /// refuses an optional feature): when one is missing, this step does not apply and is not sent.
    package var whenCaptured: [String]
    /// How long to wait before sending this step (a code-expiry probe waits out the declared lifetime).
    package var wait: Wait?

    /// A wait before a step.
    package enum Wait: Sendable, Hashable {
        case seconds(Double)
        /// The target's declared code lifetime plus a second of clock skew.
        case codeLifetime
        /// The target's declared access-token lifetime plus a second of clock skew.
        case tokenLifetime

        /// The seconds to wait under a configuration; nil when it needs a value the configuration lacks.
        package func seconds(in configuration: RunConfiguration) -> Double? {
            switch self {
            case .seconds(let seconds): seconds
            case .codeLifetime: configuration.codeLifetime.map { $0 + 1 }
            case .tokenLifetime: configuration.tokenLifetime.map { $0 + 1 }
            }
        }

        /// Why the configuration cannot say how long to wait, or nil when it can.
        package func unmet(in configuration: RunConfiguration) -> String? {
            guard seconds(in: configuration) == nil else { return nil }
            switch self {
            case .seconds: return nil
            case .codeLifetime: return "it waits out the code lifetime, and the configuration declares none (code_lifetime)"
            case .tokenLifetime: return "it waits out the access-token lifetime, and the configuration declares none (token_lifetime)"
            }
        }
    }

    package init(
        action: Action, captures: [Capture] = [], checks: [CheckGroup], location: SourceLocation, repeatCount: Int = 1,
        whenCaptured: [String] = []
    ) {
        self.action = action
        self.captures = captures
        self.checks = checks
        self.location = location
        self.repeatCount = repeatCount
        self.whenCaptured = whenCaptured
    }
}

extension Step.Action {
    /// The bytes the step's `${repeat}` variables expand to, sent once (a native command has none).
    var repeatedBytes: Int {
        switch self {
        case .link(let recipe): recipe.repeatedBytes
        case .http(let request): request.repeatedBytes
        case .native: 0
        case .intent(let recipe): recipe.repeatedBytes
        case .adapter(let request): request.values.values.reduce(0) { $0 + $1.repeatedBytes }
        }
    }

    /// The HTTP request of an HTTP step; nil for a step an adapter contract sends.
    package var httpRequest: HTTPStepRequest? {
        if case .http(let request) = self { return request }
        return nil
    }
}

/// A value to take from an answer.
package struct Capture: Sendable, Hashable {
    package enum Source: Sendable, Hashable {
        /// A query parameter of the URL the handler opened, or of an HTTP redirect's `Location`.
        case urlParameter(String)
        /// A top-level string or number member of a JSON response body.
        case jsonMember(String)
        /// A response header.
        case header(String)
        /// The whole response body as text (`body`), for answers compared whole.
        case body
        /// A String extra of an activity's result data (`extra: AUTHORIZATION_CODE`).
        case extra(String)
    }

    package var name: String
    package var source: Source

    package init(name: String, source: Source) {
        self.name = name
        self.source = source
    }
}

/// An HTTP request a step sends to a configured endpoint.
package struct HTTPStepRequest: Sendable, Hashable {
    package enum ClientAuthentication: String, Sendable, Hashable, CaseIterable {
        /// The configured method (`token_auth`), as Google sends it.
        case configured
        /// client_id and client_secret in the form body.
        case post
        /// HTTP Basic with form-encoded client_id and client_secret (RFC 6749 §2.3.1).
        case basic
        /// Both at once (RFC 6749 §2.3 forbids more than one method per request).
        case both
        /// No client credentials.
        case none
        /// The second client's credentials in the body (a client the code was not issued to).
        case secondClient = "second-client"
    }

    package var endpoint: Endpoint
    package var method: String
    /// The query, built from a base parameter set and edits.
    package var query: LinkRecipe?
    /// The `application/x-www-form-urlencoded` body, built the same way.
    package var form: LinkRecipe?
    package var authentication: ClientAuthentication
    /// Overrides for probes: a client ID or secret other than the configured one (never the real secret).
    package var authenticationClientID: Template?
    package var authenticationSecret: Template?
    package var headers: [Header]
    /// Whose decoration headers to add.
    package var user: User
    /// A probe of the endpoint's transport instead of an ordinary request.
    package var transportProbe: TransportProbe?
    /// True for a plain-http probe of an https endpoint (`scheme: http`).
    package var plainHTTPProbe: Bool { transportProbe == .plainHTTP }

    /// How a probe of an https endpoint's transport differs from an ordinary request.
    package enum TransportProbe: Sendable, Hashable {
        /// `scheme: http`: the same URL over plain http, sent without any credential or session, to see that it
        /// serves nothing.
        case plainHTTP
        /// `tls: legacy`: no HTTP request at all, only a ClientHello offering TLS 1.0 and 1.1 to the endpoint's
        /// host and port, to see which version the server takes.
        case legacyTLS
        /// `tls: certificate`: no HTTP request, a whole handshake as Google's fetchers make one: the certificate
        /// verified for the host and the date, the chain the server sends followed to a root, the key exchange read.
        case certificate

        /// The case-file option that makes a step this probe.
        package var option: String {
            switch self {
            case .plainHTTP: "'scheme: http'"
            case .legacyTLS: "'tls: legacy'"
            case .certificate: "'tls: certificate'"
            }
        }

        /// Whether the probe is a TLS handshake alone, with no HTTP request.
        package var isHandshakeOnly: Bool { self != .plainHTTP }

        /// The checks that judge a handshake-only probe, as a lint message names them.
        package var judgedBy: String {
            switch self {
            case .plainHTTP: "any check of an HTTP answer"
            case .legacyTLS: "only 'legacy_tls' judges it"
            case .certificate: "only 'certificate' and 'forward_secrecy' judge it"
            }
        }
    }
    /// `burst: N`: the request is sent up to N times in a row, stopping at the first sign of throttling.
    package var burst: Int?
    /// A probe of the sign-in walk (`sign_in: forge-consent | tamper-return`), for targets signed into through pages.
    package var signInProbe: SignInProbe?

    /// What a sign-in walk does differently to probe the pages.
    package enum SignInProbe: String, Sendable, Hashable, CaseIterable {
        /// Submits the consent form without its anti-forgery fields, as a cross-site request would.
        case forgeConsent = "forge-consent"
        /// Points the sign-in form's return parameter (next, return_to, continue, …) at another origin.
        case tamperReturn = "tamper-return"
        /// Submits the consent form with the anti-forgery fields of another user's session (the one another
        /// scenario signs in as), as an attacker who plants a token from their own account would.
        case foreignToken = "foreign-token"
        /// After a completed approval, sends the same request again in the same browser session and submits
        /// nothing: a page asking again (consent or sign-in) is what a native client's repeat request should get.
        case repeatConsent = "repeat-consent"
    }

    package enum User: Sendable, Hashable {
        /// The case's scenario (the default at the authorization endpoint).
        case caseScenario
        /// No decoration: an anonymous browser.
        case none
        case scenario(Scenario)
    }

    package struct Header: Sendable, Hashable {
        package var name: String
        package var value: Template

        package init(name: String, value: Template) {
            self.name = name
            self.value = value
        }
    }

    package init(
        endpoint: Endpoint, method: String, query: LinkRecipe? = nil, form: LinkRecipe? = nil,
        authentication: ClientAuthentication = .none, authenticationClientID: Template? = nil,
        authenticationSecret: Template? = nil, headers: [Header] = [], user: User = .none
    ) {
        self.endpoint = endpoint
        self.method = method
        self.query = query
        self.form = form
        self.authentication = authentication
        self.authenticationClientID = authenticationClientID
        self.authenticationSecret = authenticationSecret
        self.headers = headers
        self.user = user
    }
}
