import AppFlipBase
import AppFlipSyntax

package typealias SourceLocationValue = SourceLocation

/// One test case: a link to send, what the simulated user does, and the checks that judge the answer.
package struct ConformanceCase: Sendable, Hashable, Identifiable {
    /// The members a case shares with others like it, in one shared box (`CopyOnWrite`): a run of 100,000 cases holds
    /// each case in the suite, in the selection and in its result, and a copy of the box is one reference where the
    /// members are some 120 bytes. The rows of a table whose columns change only the ID share one box
    /// (`sharingMembers(with:)`): the ID and the row's line are the case's own.
    private struct Members: Hashable, Sendable {
        var title: String
        var profile: Profile
        var scenario: Scenario
        var steps: [Step]
        var skipReason: String?
        var file: String
        var group: String
        var repeatCount: Int
        var needs: [Need] = []
        var formerly: [String] = []
        /// The requirements the steps' checks name, in the order first named: worked out whenever the steps are set,
        /// not on each read (every report reads them for every case).
        var requirements: [RequirementReference] = []
        /// The requirements the steps' checks name only as setup, worked out with `requirements` (every judged case
        /// reads them).
        var setupRequirements: Set<String> = []
    }

    private var storage: CopyOnWrite<Members>
    /// Stable, written in the case file (never positional): `app-link/redirect-uri/lookalike-suffix-host`.
    package var id: String
    private var line: Int32
    private var column: Int32

    package var title: String {
        get { storage.value.title }
        set { storage.value.title = newValue }
    }
    package var profile: Profile {
        get { storage.value.profile }
        set { storage.value.profile = newValue }
    }
    package var scenario: Scenario {
        get { storage.value.scenario }
        set { storage.value.scenario = newValue }
    }
    /// What the case does, in order. An app-link case written with `link` and checks is one link step.
    package var steps: [Step] {
        _read { yield storage.value.steps }
        set {
            storage.value.steps = newValue
            storage.value.requirements = Self.requirements(of: newValue)
            storage.value.setupRequirements = Self.setupRequirements(of: newValue)
        }
    }
    /// When set, the case is reported as skipped with this reason and not sent.
    package var skipReason: String? {
        get { storage.value.skipReason }
        set { storage.value.skipReason = newValue }
    }
    /// Where the case (or, for a table, its row) is written.
    package var location: SourceLocation {
        get { SourceLocation(file: storage.value.file, line: Int(line), column: Int(column)) }
        set {
            if storage.value.file != newValue.file { storage.value.file = newValue.file }
            line = Int32(clamping: newValue.line)
            column = Int32(clamping: newValue.column)
        }
    }
    /// The case file's directory under the cases root, e.g. `app-link/redirect-uri`.
    package var group: String {
        get { storage.value.group }
        set { storage.value.group = newValue }
    }
    /// How many times the whole sequence of steps runs (`repeat:` of the case); sample checks see every round.
    package var repeatCount: Int {
        get { storage.value.repeatCount }
        set { storage.value.repeatCount = newValue }
    }
    /// What the run's configuration must provide for the case to apply (`needs:`); otherwise it is skipped.
    package var needs: [Need] {
        get { storage.value.needs }
        set { storage.value.needs = newValue }
    }

    /// The IDs the case had before it was renamed (`formerly:`): a baseline entry, `--rerun-failed` and `diff` that
    /// name an old ID still find it.
    package var formerly: [String] {
        get { storage.value.formerly }
        set { storage.value.formerly = newValue }
    }

    /// Whether `id` names this case, now or before a rename.
    package func isNamed(_ id: String) -> Bool { self.id == id || formerly.contains(id) }

    /// Something a case needs from the configuration.
    package enum Need: String, Sendable, Hashable, CaseIterable {
        /// A public native client registered at the partner's server.
        case nativeClient = "native_client"
        /// ...with a loopback redirect URI.
        case nativeLoopback = "native_loopback"
        /// ...with a private-use-scheme redirect URI.
        case nativeScheme = "native_scheme"
        /// Every endpoint the case requests is configured with https:// (what only TLS carries, such as HSTS).
        case https
        /// A scope request the server narrows (`narrowed_scope` in the target configuration).
        case narrowedScope = "narrowed_scope"
        /// The partner opted into the throttling probe (`throttling_probe: true`).
        case throttlingProbe = "throttling_probe"
        /// The client ID has an ASCII letter, so `${client_id_case_changed}` differs from it.
        case clientIDLetters = "client_id_letters"
        /// The Actions project's ID, for Google's redirect URI (`${project_id}`, `${web_redirect_uri}`): a case whose
        /// templates use either needs it without saying so (the loader adds it).
        case projectID = "project_id"

        /// Whether an unmet need is a fact about the target that conformance allows (a server that never narrows a
        /// scope, a client ID with no letter), so its case does not apply, rather than something left unconfigured.
        package func isTargetProperty(in configuration: RunConfiguration) -> Bool {
            switch self {
            case .clientIDLetters: true
            case .narrowedScope: configuration.neverNarrows
            case .nativeClient, .nativeLoopback, .nativeScheme, .https, .throttlingProbe, .projectID: false
            }
        }

        /// Why a configuration does not meet the need, or nil when it does; `endpoints` are the configured URLs.
        package func unmet(by conformanceCase: ConformanceCase, in configuration: RunConfiguration, endpoints: [Endpoint: String]) -> String? {
            if self == .projectID {
                return configuration.projectID.isEmpty
                    ? "no project_id is configured, and the case sends Google's redirect URI "
                        + "https://oauth-redirect.googleusercontent.com/r/PROJECT_ID, which is built from it (give project_id)" : nil
            }
            if self == .clientIDLetters {
                return Template.swappingCase(configuration.clientID) == configuration.clientID
                    ? "the client ID has no letter whose case could change, so no case-changed form of it exists" : nil
            }
            if self == .throttlingProbe {
                return configuration.throttlingProbe
                    ? nil
                    : "the throttling probe sends a burst of wrong client secrets under Google's client ID, which could lock that "
                        + "client out of a production server for a while: opt in with throttling_probe: true"
            }
            if self == .narrowedScope {
                if configuration.neverNarrows { return "the server never grants part of a scope request (narrowed_scope: none)" }
                return configuration.narrowedScope == nil
                    ? "no narrowed scope is configured (narrowed_scope: a request the server grants only in part, or none)" : nil
            }
            if self == .https {
                let plain = conformanceCase.httpRequests.map(\.endpoint).first { endpoints[$0]?.lowercased().hasPrefix("https://") == false }
                return plain.map { "the \($0.rawValue) endpoint is configured with http://, and what this case judges is only sent over https" }
            }
            guard let native = configuration.nativeClient else {
                return "no native client is configured (native_client_id, native_redirect_uris)"
            }
            switch self {
            case .nativeClient, .https, .narrowedScope, .throttlingProbe, .clientIDLetters, .projectID: return nil
            case .nativeLoopback: return native.loopbackURI == nil ? "the native client has no loopback redirect URI (http://127.0.0.1/…)" : nil
            case .nativeScheme: return native.schemeURI == nil ? "the native client has no private-use-scheme redirect URI" : nil
            }
        }
    }

    package init(
        id: String, title: String, profile: Profile, scenario: Scenario, steps: [Step], skipReason: String? = nil,
        location: SourceLocation, group: String, repeatCount: Int = 1
    ) {
        storage = CopyOnWrite(
            Members(
                title: title, profile: profile, scenario: scenario, steps: steps, skipReason: skipReason, file: location.file,
                group: group, repeatCount: repeatCount, requirements: Self.requirements(of: steps),
                setupRequirements: Self.setupRequirements(of: steps)))
        self.id = id
        line = Int32(clamping: location.line)
        column = Int32(clamping: location.column)
    }

    /// Takes `other`'s box when the two cases are the same but for their IDs and lines (the rows of a table whose
    /// columns change only the ID): one box for them all instead of one each.
    package mutating func sharingMembers(with other: ConformanceCase) {
        if storage == other.storage { storage = other.storage }
    }

    /// A one-step case that sends a link and judges the answer.
    package init(
        id: String, title: String, profile: Profile, scenario: Scenario, link: LinkRecipe,
        checks: [CheckGroup], skipReason: String? = nil, location: SourceLocation, group: String
    ) {
        self.init(
            id: id, title: title, profile: profile, scenario: scenario,
            steps: [Step(action: .link(link), checks: checks, location: location)], skipReason: skipReason,
            location: location, group: group)
    }

    /// True when a step authenticates at the token or revocation endpoint with the configured client ID and
    /// secret (not a probe value and not the second client).
    package var sendsConfiguredCredentials: Bool {
        httpRequests.contains { request in
            (request.endpoint == .token || request.endpoint == .revoke) && [.configured, .post, .basic, .both].contains(request.authentication)
                && request.authenticationSecret == nil && request.authenticationClientID == nil
        }
    }

    /// The HTTP requests of the case's steps, in order.
    package var httpRequests: [HTTPStepRequest] {
        steps.compactMap { step in
            if case .http(let request) = step.action { return request }
            return nil
        }
    }

    /// The seconds the case waits in all, or nil when a wait needs a value the configuration lacks.
    package func totalWait(in configuration: RunConfiguration) -> Double? {
        var total = 0.0
        for step in steps {
            guard let wait = step.wait else { continue }
            guard let seconds = wait.seconds(in: configuration) else { return nil }
            total += seconds
        }
        return total * Double(repeatCount)
    }

    /// Whether a step probes an https endpoint over plain http (such a case needs an https endpoint to judge).
    package var probesPlainHTTP: Bool { httpRequests.contains(where: \.plainHTTPProbe) }

    /// Whether the case is judged only against https endpoints (a transport probe, or `needs: [https]`).
    package var needsHTTPS: Bool { needs.contains(.https) || httpRequests.contains { $0.transportProbe != nil } }

    /// Whether a step probes the sign-in pages (such a case needs `sign_in` for its scenario).
    package var probesSignIn: Bool { httpRequests.contains { $0.signInProbe != nil } }

    /// Whether the case sends a burst (a throttling probe): it runs after every other case, alone, so the
    /// throttling it may set off cannot spoil them.
    package var runsLast: Bool { httpRequests.contains { $0.burst != nil } }

    /// Whether a step needs a second user's sign-in (a token taken from another user's session).
    package var needsSecondSignIn: Bool { httpRequests.contains { $0.signInProbe == .foreignToken } }

    /// Whether any step waits.
    package var waits: Bool { steps.contains { $0.wait != nil } }

    /// Every check of every step.
    package var checks: [CheckGroup] { steps.flatMap(\.checks) }

    /// The requirements the case checks only as setup (`setup: true` on every group that names them).
    package var setupRequirements: Set<String> { storage.value.setupRequirements }

    private static func setupRequirements(of steps: [Step]) -> Set<String> {
        let groups = steps.flatMap(\.checks)
        guard groups.contains(where: \.isSetup) else { return [] }
        let tested = Set(groups.filter { !$0.isSetup }.map(\.requirement.id))
        return Set(groups.filter(\.isSetup).map(\.requirement.id)).subtracting(tested)
    }

    /// The requirements the case checks, in the order first named.
    package var requirements: [RequirementReference] { storage.value.requirements }

    private static func requirements(of steps: [Step]) -> [RequirementReference] {
        var list = FirstNamedRequirements(capacity: steps.reduce(0) { $0 + $1.checks.count })
        for step in steps {
            for check in step.checks { list.add(check.requirement) }
        }
        return list.list
    }
}
