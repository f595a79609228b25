/// What a certification run decided for one program: certified, or not and why. Derived from the cases alone (by
/// `RunResult` for a run, by `ResultsDocument` for a results.json read back), under one rule.
package struct ProgramOutcome: Sendable, Hashable {
    package enum Status: String, Sendable, Hashable {
        /// Every case of the program judged, none failed or ended in error.
        case certified
        /// A case failed or ended in error, a case was not judged, or the run was interrupted.
        case notCertified = "not-certified"
        /// One shard of a certification run: `merge` of every shard decides.
        case shard
    }

    package var program: CertificationProgram
    package var status: Status
    /// Why it is not certified (or, for a shard, what the shard holds); empty when certified.
    package var reason: String

    /// One case as the rule reads it.
    package struct CaseFacts: Sendable, Hashable {
        package var profile: String
        package var verdict: Verdict
        /// Skipped without being inapplicable, or judged nothing it tests.
        package var untested: Bool
        /// The requirements it checks; empty when that is not known (a skipped case read back).
        package var requirements: [String]

        package init(profile: String, verdict: Verdict, untested: Bool, requirements: [String]) {
            self.profile = profile
            self.verdict = verdict
            self.untested = untested
            self.requirements = requirements
        }
    }

    /// The rule: a program is certified when the run was whole (not interrupted, not one shard), each of its profiles
    /// has cases, and every case it judges was judged, with no failure and no error.
    package static func judge(_ program: CertificationProgram, cases: [CaseFacts], incomplete: Bool, shard: String?) -> ProgramOutcome {
        let own = cases.filter { facts in
            program.profiles.contains { $0.rawValue == facts.profile }
                && (facts.requirements.isEmpty || facts.requirements.contains { !program.leavesOut($0) })
        }
        if let shard {
            return ProgramOutcome(program: program, status: .shard,
                                  reason: "shard \(shard) of a certification run (\(own.count) of its cases): `merge` of every shard decides")
        }
        var reasons: [String] = []
        if incomplete { reasons.append("the run was interrupted") }
        let failed = own.filter { $0.verdict == .fail }.count
        let errors = own.filter { $0.verdict == .error }.count
        if failed > 0 { reasons.append("\(failed) case\(failed == 1 ? "" : "s") failed") }
        if errors > 0 { reasons.append("\(errors) case\(errors == 1 ? "" : "s") ended in error") }
        let untested = own.filter(\.untested)
        if !untested.isEmpty {
            let profiles = Set(untested.map(\.profile))
            reasons.append("\(untested.count) case\(untested.count == 1 ? "" : "s") not judged ("
                           + program.profiles.map(\.rawValue).filter(profiles.contains).joined(separator: ", ") + ")")
        }
        let empty = program.profiles.map(\.rawValue).filter { profile in !own.contains { $0.profile == profile } }
        if !empty.isEmpty { reasons.append("no case of " + empty.joined(separator: ", ") + " ran") }
        return ProgramOutcome(program: program, status: reasons.isEmpty ? .certified : .notCertified, reason: reasons.joined(separator: "; "))
    }

    /// `CERTIFIED: App Flip for iOS` or `NOT A CERTIFICATION PASS: App Flip for iOS (2 cases failed)`.
    package var headline: String {
        switch status {
        case .certified: "CERTIFIED: \(program.title)"
        case .notCertified: "NOT A CERTIFICATION PASS: \(program.title) (\(reason))"
        case .shard: "NO CERTIFICATION VERDICT YET: \(program.title) (\(reason))"
        }
    }
}

extension ProgramOutcome {
    /// Headlines of several programs in one line: the certified ones together, then each one that is not.
    package static func headline(_ outcomes: [ProgramOutcome]) -> String {
        let certified = outcomes.filter { $0.status == .certified }.map(\.program.title)
        var parts: [String] = certified.isEmpty ? [] : ["CERTIFIED: " + certified.joined(separator: ", ")]
        parts += outcomes.filter { $0.status != .certified }.map(\.headline)
        return parts.joined(separator: "; ")
    }
}

extension RunResult {
    /// The certification programs the run judged, each with its outcome; empty when it was no certification run.
    package var programOutcomes: [ProgramOutcome] {
        let programs = provenance.certificationPrograms.compactMap { catalog.program($0) }
        guard !programs.isEmpty else { return [] }
        let facts = results.map { result in
            ProgramOutcome.CaseFacts(profile: result.conformanceCase.profile.rawValue, verdict: result.isKnown ? .pass : result.verdict,
                                     untested: (result.isUntested && !result.isKnown) || result.notJudged != nil,
                                     requirements: result.conformanceCase.requirements.map(\.id))
        }
        return programs.map { ProgramOutcome.judge($0, cases: facts, incomplete: incomplete, shard: provenance.shard) }
    }
}
