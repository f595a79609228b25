import AppFlipHTTP
import AppFlipModel

/// The partner's target as a run talks to it: its adapters (one per contract configured), the HTTP endpoints, and
/// what the suite knows of them (credentials, decorations, what could not be reached).
package struct TargetUnderTest: Sendable {
    /// The adapter contracts the run knows (the built-in three, and any registered).
    package var contracts: AdapterContracts = .builtIn
    /// The partner's adapter under each contract configured, by the contract's key.
    package var adapters: [AdapterContractKey: any AdapterTarget]
    /// Endpoint URLs by kind, as configured.
    package var endpoints: [Endpoint: String]
    /// Why an endpoint is missing, where "not configured" would mislead (the reference's placeholder link host).
    package var absenceReasons: [Endpoint: String] = [:]
    package var clientSecret: String?
    package var tokenAuthentication: TargetConfiguration.ClientAuthentication
    /// Request headers per scenario.
    package var decorations: [Scenario: [(name: String, value: String)]]
    /// Values never to show in evidence (the secret, decoration values).
    package var secrets: [String]
    /// Bounds on every HTTP response.
    package var limits: HTTPLimits
    /// Where the run's names point and what it trusts (`--resolve`, `--ca-file`, the reference's CA and link host):
    /// every connection the run makes goes through it.
    package var network: Network = .system
    /// Another client registered at the partner, when configured.
    package var secondClient: (id: String, secret: String)?
    /// Set when the token endpoint rejected the configured client credentials before the run: the cases that send
    /// them are then errors that say so, and are not sent.
    package var credentialsProblem: String?
    /// Origins the cases need that could not be reached before the run, and adapters that cannot be used at all
    /// (under their contract's key), each with why: the cases that need one are errors that say so, and are not sent.
    package var unreachable: [String: String] = [:]
    /// How each scenario's test user signs in through the real pages; such a scenario's authorization requests
    /// are driven as a browser would, instead of carrying decoration headers.
    package var signIn: [Scenario: SignInScript] = [:]
    /// Origins besides the authorization endpoint's that a sign-in may follow redirects to.
    package var signInOrigins: [String] = []

    package init(
        adapters: [AdapterContractKey: any AdapterTarget] = [:], endpoints: [Endpoint: String] = [:], clientSecret: String? = nil,
        tokenAuthentication: TargetConfiguration.ClientAuthentication = .post,
        decorations: [Scenario: [(name: String, value: String)]] = [:], secrets: [String] = [],
        limits: HTTPLimits = HTTPLimits(maximumBodyBytes: 1 << 20), secondClient: (id: String, secret: String)? = nil
    ) {
        self.adapters = adapters
        self.endpoints = endpoints
        self.clientSecret = clientSecret
        self.tokenAuthentication = tokenAuthentication
        self.decorations = decorations
        self.secrets = secrets + [clientSecret].compactMap { $0 } + decorations.values.flatMap { $0.map(\.value) }
        self.limits = limits
        self.secondClient = secondClient
        if let secondClient { self.secrets.append(secondClient.secret) }
    }

    /// One line for the report.
    package var description: String {
        var parts: [String] = []
        for contract in contracts.all {
            if let adapter = adapters[contract.key] { parts.append((contract.labelsDescription ? contract.role + ": " : "") + adapter.description) }
        }
        for endpoint in Endpoint.allCases { if let url = endpoints[endpoint] { parts.append("\(endpoint.rawValue): \(url)") } }
        return parts.joined(separator: "; ")
    }

    /// Ends every process the run's adapters started (the end of a run).
    package func endProcesses() {
        for adapter in adapters.values { adapter.endProcesses() }
    }

    /// Another user to take an anti-forgery token from: the refusing user if one signs in, else any other.
    func donorSignIn(besides scenario: Scenario) -> SignInScript? {
        if scenario != .deny, let script = signIn[.deny] { return script }
        return Scenario.allCases.lazy.filter { $0 != scenario }.compactMap { self.signIn[$0] }.first
    }

    /// Why a case cannot run here, or nil when it can.
    package func unavailability(of conformanceCase: ConformanceCase) -> String? {
        for step in conformanceCase.steps {
            guard let request = step.action.httpRequest else {
                guard let contract = contracts.contract(sending: step.action) else { return "no adapter contract sends its steps" }
                if adapters[contract.key] == nil { return contract.unconfigured }
                continue
            }
            if endpoints[request.endpoint] == nil {
                return absenceReasons[request.endpoint] ?? "the \(request.endpoint.rawValue) endpoint is not configured"
            }
            if request.authentication == .secondClient, secondClient == nil {
                return "no second client is configured (second_client_id, second_client_secret_env)"
            }
        }
        return nil
    }
}
