import AppFlipModel

/// What a certification's programs need that the run's target and configuration do not give: checked before the run
/// connects to anything, so a certification that could not judge every case is refused in a second instead of
/// ending "not a certification pass" after the whole run. The programs' declared needs (`ProgramNeed`) and the
/// adapters their cases send through.
package enum ProgramNeedsCheck {
    /// One thing missing, with the programs that need it.
    package struct Missing: Sendable, Hashable {
        /// The configuration key (`endpoints.api`) or the adapter (`the link handler`).
        package var key: String
        /// What to write or give.
        package var remedy: String
        /// The keys of the programs that need it.
        package var programs: [String]

        /// `endpoints.api (app-flip-ios, native-client): any GET of your API …`
        package var line: String { "\(key) (\(programs.joined(separator: ", "))): \(remedy)" }
    }

    /// Everything `programs` need that `targets` and `configuration` lack, in the programs' order, each once.
    package static func missing(
        _ programs: [CertificationProgram], cases: [ConformanceCase], targets: TargetUnderTest,
        configuration: RunConfiguration
    ) -> [Missing] {
        var found: [Missing] = []
        func add(_ key: String, _ remedy: String, _ program: String) {
            if let index = found.firstIndex(where: { $0.key == key }) {
                if !found[index].programs.contains(program) { found[index].programs.append(program) }
            } else {
                found.append(Missing(key: key, remedy: remedy, programs: [program]))
            }
        }
        for program in programs {
            for contract in targets.contracts.all where targets.adapters[contract.key] == nil {
                if cases.contains(where: { program.judges($0) && AdapterContracts.sends($0, through: contract) }) {
                    add(contract.key.rawValue, contract.unconfigured, program.key)
                }
            }
            for need in program.needs {
                if !isMet(need, targets: targets, configuration: configuration) {
                    add(need.key, need.whatToWrite + unmetDetail(need, targets: targets), program.key)
                } else if let hollow = hollowness(need, targets: targets, configuration: configuration) {
                    add(need.key, hollow + "; " + need.whatToWrite, program.key)
                }
            }
        }
        return found
    }

    /// Whether the target and configuration give what `need` names.
    static func isMet(_ need: ProgramNeed, targets: TargetUnderTest, configuration: RunConfiguration) -> Bool {
        switch need {
        case .endpoint(let endpoint): targets.endpoints[endpoint] != nil
        case .https: plainEndpoints(targets).isEmpty
        case .signIn(let scenario): targets.signIn[scenario] != nil
        case .user(let scenario): targets.signIn[scenario] != nil || targets.decorations[scenario] != nil
        case .value(.clientSecret): targets.clientSecret != nil
        case .value(.projectID): !configuration.projectID.isEmpty
        case .value(.appID): !configuration.appID.isEmpty
        case .value(.link): !configuration.link.isEmpty
        case .value(.secondClient): targets.secondClient != nil
        case .value(.codeLifetime): configuration.codeLifetime != nil
        case .value(.tokenLifetime): configuration.tokenLifetime != nil
        case .value(.narrowedScope): configuration.narrowedScope != nil || configuration.neverNarrows
        case .value(.throttlingProbe): configuration.throttlingProbe
        }
    }

    /// Why a need that is given holds no usable value, or nil when it does: a blank value, a placeholder the docs
    /// show, a second client that is the first, a sign-in user without a name or without a secret. A hollow value
    /// would let a certification start whose cases could judge nothing real.
    package static func hollowness(_ need: ProgramNeed, targets: TargetUnderTest, configuration: RunConfiguration) -> String? {
        func text(_ value: String, _ key: ProgramNeed.Value) -> String? {
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { return "it is blank" }
            if ProgramNeed.placeholders[key]?.contains(trimmed) == true { return "'\(trimmed)' is the placeholder the docs show, not yours" }
            return nil
        }
        switch need {
        case .value(.projectID): return text(configuration.projectID, .projectID)
        case .value(.appID): return text(configuration.appID, .appID)
        case .value(.link): return text(configuration.link, .link)
        case .value(.clientSecret): return targets.clientSecret.flatMap { text($0, .clientSecret) }
        case .value(.secondClient):
            guard let second = targets.secondClient else { return nil }
            if let hollow = text(second.id, .secondClient) { return hollow }
            if second.id.trimmingCharacters(in: .whitespaces) == configuration.clientID.trimmingCharacters(in: .whitespaces) {
                return "second_client_id is client_id itself: a code must be refused to another client, so it must be another"
            }
            return second.secret.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? "its secret is blank" : nil
        case .signIn(let scenario):
            return targets.signIn[scenario].flatMap(signInHollowness)
        case .user(let scenario):
            if let script = targets.signIn[scenario] { return signInHollowness(script) }
            let headers = targets.decorations[scenario] ?? []
            return headers.contains { !$0.value.trimmingCharacters(in: .whitespaces).isEmpty } ? nil : "its request headers are blank"
        default:
            return nil
        }
    }

    /// A sign-in user needs a name (a field that is no credential) and a secret (one that is), each non-blank.
    private static func signInHollowness(_ script: SignInScript) -> String? {
        let given = script.fields.filter { !$0.value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        let blank = script.fields.keys.filter { given[$0] == nil }.sorted()
        if !blank.isEmpty {
            return "the sign-in field\(blank.count == 1 ? "" : "s") \(blank.joined(separator: ", ")) \(blank.count == 1 ? "is" : "are") blank"
        }
        if !given.keys.contains(where: { !SignInScript.isCredential($0) }) { return "the sign-in fields name no user (no field but credentials)" }
        if !given.keys.contains(where: SignInScript.isCredential) { return "the sign-in fields give no secret (no password, PIN or code field)" }
        return nil
    }

    /// The endpoints configured with anything but https (the link handler's own URL aside: an adapter, not a
    /// partner endpoint).
    private static func plainEndpoints(_ targets: TargetUnderTest) -> [Endpoint] {
        Endpoint.allCases.filter { endpoint in
            endpoint != .linkHandler && targets.endpoints[endpoint].map { !$0.lowercased().hasPrefix("https://") } == true
        }
    }

    /// Which endpoints are plain http, for the https need.
    private static func unmetDetail(_ need: ProgramNeed, targets: TargetUnderTest) -> String {
        guard need == .https else { return "" }
        return "; configured with http://: " + plainEndpoints(targets).map(\.rawValue).joined(separator: ", ")
    }
}
