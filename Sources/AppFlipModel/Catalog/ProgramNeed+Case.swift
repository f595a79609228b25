extension ConformanceCase {
    /// What the case needs from the configuration to be judged, as a program declares needs: the endpoints its
    /// requests go to, https for its TLS probes and its `needs: [https]`, the users whose sign-in it walks, the
    /// lifetimes it waits out, the second client, the narrowed scope, the throttling opt-in. What a conformant server
    /// may lack (metadata, a narrowing, a client ID with letters) and what the adapters are (each contract's own) are
    /// not in it. A program's declared needs hold every need of its cases (a test keeps them so).
    package var programNeeds: Set<ProgramNeed> {
        var needs: Set<ProgramNeed> = []
        for request in httpRequests {
            if ![.metadata, .linkSiteAssociation, .linkHandler].contains(request.endpoint) { needs.insert(.endpoint(request.endpoint)) }
            if request.transportProbe != nil { needs.insert(.https) }
            if request.authentication == .secondClient { needs.insert(.value(.secondClient)) }
            if case .scenario(let scenario) = request.user, scenario == .secondUser { needs.insert(.user(.secondUser)) }
            if request.signInProbe != nil { needs.insert(.signIn(scenario)) }
        }
        if needsSecondSignIn { needs.insert(.signIn(scenario == .deny ? .consent : .deny)) }
        for need in self.needs {
            switch need {
            case .https: needs.insert(.https)
            case .narrowedScope: needs.insert(.value(.narrowedScope))
            case .throttlingProbe: needs.insert(.value(.throttlingProbe))
            case .projectID: needs.insert(.value(.projectID))
            case .nativeClient, .nativeLoopback, .nativeScheme, .clientIDLetters: break
            }
        }
        for step in steps {
            switch step.wait {
            case .codeLifetime: needs.insert(.value(.codeLifetime))
            case .tokenLifetime: needs.insert(.value(.tokenLifetime))
            case .seconds, nil: break
            }
        }
        return needs
    }

    /// The client the case needs that an App Flip program leaves out: a native client (`needs: [native_client]` and
    /// the like), or nil.
    package var nativeClientNeed: Need? {
        needs.first { [.nativeClient, .nativeLoopback, .nativeScheme].contains($0) }
    }
}

extension CertificationProgram {
    /// The needs of the program's cases that it does not declare, each with the first case that has it.
    package func undeclaredNeeds(of cases: [ConformanceCase]) -> [(need: ProgramNeed, caseID: String)] {
        var found: [(need: ProgramNeed, caseID: String)] = []
        for conformanceCase in cases where judges(conformanceCase) {
            for need in conformanceCase.programNeeds.sorted(by: { $0.key < $1.key })
            where !needs.contains(need) && !found.contains(where: { $0.need == need }) {
                found.append((need, conformanceCase.id))
            }
        }
        return found
    }
}
