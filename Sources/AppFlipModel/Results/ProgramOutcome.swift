/// What a certification run decided for one program: certified, or not and why. Derived from the cases alone (by
/// `RunResult` for a run, by `ResultsDocument` for a results.json read back), under one rule.
package struct ProgramOutcome: Sendable, Hashable {
    package enum Status: String, Sendable, Hashable {
        /// Every case of the program judged, none failed or ended in error, and every MUST requirement no machine
        /// judges attested as holding (or not applicable) in the run's own attestation file: the partner's word. Not a
        /// certification: only a reviewer's signed certificate (`certify`) is one.
        case attestedByPartner = "attested-by-partner"
        /// The suite's part passed (as `attestedByPartner`), and a MUST requirement no machine judges is not attested
        /// yet: the run's exit code is 0.
        case awaitingAttestation = "awaiting-attestation"
        /// A case failed or ended in error, a case was not judged, the run was interrupted, or a reviewer attested
        /// that a MUST requirement does not hold.
        case notCertified = "not-certified"
        /// One shard of a certification run: `merge` of every shard decides.
        case shard
    }

    package var program: CertificationProgram
    package var status: Status
    /// Why it is not certified (or, for a shard, what the shard holds); empty when certified.
    package var reason: String
    /// Whether the suite's own part did not hold (a case failed, ended in error or was not judged; the run was
    /// interrupted). The run's exit code follows this alone (an attestation is a person's word and never changes
    /// it); `status` adds the attestations.
    package var failedBySuite: Bool { status == .notCertified && !reasonIsAttestation }
    /// Set when the only reason for `notCertified` is an attestation that a requirement does not hold.
    private var reasonIsAttestation = false

    package init(program: CertificationProgram, status: Status, reason: String) {
        self.program = program
        self.status = status
        self.reason = reason
    }

    /// One case as the rule reads it.
    package struct CaseFacts: Sendable, Hashable {
        package var id: String
        package var profile: String
        package var verdict: Verdict
        /// Skipped without being inapplicable, or judged nothing it tests.
        package var untested: Bool
        /// The requirements it checks; empty when that is not known (a skipped case read back).
        package var requirements: [String]

        package init(id: String, profile: String, verdict: Verdict, untested: Bool, requirements: [String]) {
            self.id = id
            self.profile = profile
            self.verdict = verdict
            self.untested = untested
            self.requirements = requirements
        }
    }

    /// The rule: a program is certified when the run was whole (not interrupted, not one shard), its cases are
    /// exactly the program's case list (`expected`, the IDs of the suite's cases it judges: each present once, none
    /// missing, none added), every case it judges was judged, with no failure and no error, and every MUST requirement
    /// of it that no machine judges (`toAttest`) is attested (`attested`, by requirement ID) as passing or not
    /// applicable. Without `expected` (the suite's cases are not at hand) the list is not checked.
    package static func judge(
        _ program: CertificationProgram, cases: [CaseFacts], incomplete: Bool, shard: String?,
        toAttest: [Requirement] = [], attested: [String: Attestation.Verdict] = [:],
        changedAdapters: [String] = [], expected: [String]? = nil
    ) -> ProgramOutcome {
        let own = cases.filter { facts in
            program.profiles.contains { $0.rawValue == facts.profile }
                && (facts.requirements.isEmpty || facts.requirements.contains { !program.leavesOut($0) })
        }
        if let shard {
            return ProgramOutcome(
                program: program, status: .shard,
                reason: "shard \(shard) of a certification run (\(own.count) of its cases): `merge` of every shard decides")
        }
        var reasons: [String] = []
        if incomplete { reasons.append("the run was interrupted") }
        // What was tested must be one program: an adapter that changed while the cases ran is not one.
        if !changedAdapters.isEmpty { reasons.append("an adapter changed while the cases ran (" + changedAdapters.joined(separator: ", ") + ")") }
        let failed = own.filter { $0.verdict == .fail }.count
        let errors = own.filter { $0.verdict == .error }.count
        if failed > 0 { reasons.append("\(failed) case\(failed == 1 ? "" : "s") failed") }
        if errors > 0 { reasons.append("\(errors) case\(errors == 1 ? "" : "s") ended in error") }
        let untested = own.filter(\.untested)
        if !untested.isEmpty {
            let profiles = Set(untested.map(\.profile))
            reasons.append(
                "\(untested.count) case\(untested.count == 1 ? "" : "s") not judged ("
                    + program.profiles.map(\.rawValue).filter(profiles.contains).joined(separator: ", ") + ")")
        }
        let empty = program.profiles.map(\.rawValue).filter { profile in !own.contains { $0.profile == profile } }
        if !empty.isEmpty { reasons.append("no case of " + empty.joined(separator: ", ") + " ran") }
        if let expected { reasons += caseListReasons(own.map(\.id), all: cases.map(\.id), expected: expected) }
        guard reasons.isEmpty else { return ProgramOutcome(program: program, status: .notCertified, reason: reasons.joined(separator: "; ")) }
        // The suite's part held: what a person must still say decides the rest.
        let musts = toAttest.filter { program.needs($0) && ($0.level == .must || $0.level == .mustNot) }.map(\.id)
        let failing = musts.filter { attested[$0] == .fail }
        if !failing.isEmpty {
            var outcome = ProgramOutcome(
                program: program, status: .notCertified,
                reason: "attested as not holding: " + failing.joined(separator: ", "))
            outcome.reasonIsAttestation = true
            return outcome
        }
        let awaiting = musts.filter { attested[$0] == nil }
        guard awaiting.isEmpty else {
            return ProgramOutcome(program: program, status: .awaitingAttestation, reason: awaiting.joined(separator: ", "))
        }
        return ProgramOutcome(program: program, status: .attestedByPartner, reason: "")
    }

    /// What keeps `recorded` (the IDs of the program's cases a run holds; `all`, every case it holds) from being the
    /// program's case list: cases missing, cases it does not have, cases held more than once. Each names a few IDs.
    package static func caseListReasons(_ recorded: [String], all: [String], expected: [String]) -> [String] {
        let named = { (ids: [String]) in ids.prefix(3).joined(separator: ", ") + (ids.count > 3 ? " and \(ids.count - 3) more" : "") }
        var reasons: [String] = []
        let held = Set(recorded)
        let listed = Set(expected)
        let missing = expected.filter { !held.contains($0) }
        if !missing.isEmpty {
            reasons.append("\(missing.count) of its \(expected.count) cases missing (\(named(missing)))")
        }
        let extra = recorded.filter { !listed.contains($0) }
        if !extra.isEmpty { reasons.append("\(extra.count) case\(extra.count == 1 ? "" : "s") not of its case list (\(named(extra)))") }
        var seen = Set<String>()
        var twice: [String] = []
        for id in all where !seen.insert(id).inserted && listed.contains(id) && !twice.contains(id) { twice.append(id) }
        if !twice.isEmpty { reasons.append("\(twice.count) case\(twice.count == 1 ? "" : "s") recorded more than once (\(named(twice)))") }
        return reasons
    }

    /// `PASSED BY THE SUITE, ATTESTED BY THE PARTNER: App Flip for iOS` or `NOT A CERTIFICATION PASS: App Flip for iOS (2 cases failed)`.
    package var headline: String {
        switch status {
        case .attestedByPartner: "\(Self.attestedWords): \(program.title)"
        case .awaitingAttestation: "PASSED BY THE SUITE, AWAITING ATTESTATION: \(program.title) (\(reason))"
        case .notCertified: "NOT A CERTIFICATION PASS: \(program.title) (\(reason))"
        case .shard: "NO CERTIFICATION VERDICT YET: \(program.title) (\(reason))"
        }
    }
}

extension ProgramOutcome {
    /// What a run says of a program that passed and was attested by whoever ran it: never "certified", which only a
    /// reviewer's certificate says.
    package static let attestedWords = "PASSED BY THE SUITE, ATTESTED BY THE PARTNER"

    /// Headlines of several programs in one line: the attested ones together, then each one that is not.
    package static func headline(_ outcomes: [ProgramOutcome]) -> String {
        let attested = outcomes.filter { $0.status == .attestedByPartner }.map(\.program.title)
        var parts: [String] = attested.isEmpty ? [] : [attestedWords + ": " + attested.joined(separator: ", ")]
        parts += outcomes.filter { $0.status != .attestedByPartner }.map(\.headline)
        return parts.joined(separator: "; ")
    }
}

extension RunResult {
    /// The certification programs the run judged, each with its outcome; empty when it was no certification run.
    package var programOutcomes: [ProgramOutcome] {
        let programs = provenance.certificationPrograms.compactMap { catalog.program($0) }
        guard !programs.isEmpty else { return [] }
        let facts = results.map { result in
            ProgramOutcome.CaseFacts(
                id: result.conformanceCase.id, profile: result.conformanceCase.profile.rawValue, verdict: result.isKnown ? .pass : result.verdict,
                untested: (result.isUntested && !result.isKnown) || result.notJudged != nil,
                requirements: result.conformanceCase.requirements.map(\.id))
        }
        let attested = Dictionary(attestations.map { ($0.requirement, $0.verdict) }, uniquingKeysWith: { first, _ in first })
        let toAttest = catalog.toAttest(for: programs)
        let changed = provenance.adapterFiles.filter(\.changed).map(\.path)
        return programs.map {
            ProgramOutcome.judge(
                $0, cases: facts, incomplete: incomplete, shard: provenance.shard, toAttest: toAttest, attested: attested,
                changedAdapters: changed, expected: programCases[$0.key])
        }
    }
}
