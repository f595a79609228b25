import AppFlipModel
import AppFlipReporting

/// What a results.json says that it could derive, derived again from what it records underneath: whoever reads one
/// (`verify`, `merge`, `diff`, `--rerun-failed`) trusts no derived field. Each contradiction is named; none is resolved
/// silently.
///
/// - each check's verdict fits its level (a MUST fails, a SHOULD warns, a MAY informs; nothing worse) and the
///   catalog's level for its requirement, and a check that did not apply says why;
/// - each case's verdict follows from its checks and its fault, by the rule a run uses (`Runner`, `CaseResult.judged`):
///   a failed MUST check makes it `fail` (an error of the suite's own makes it `error`); without one, a judged case is
///   its worst applicable check, and `error` or `skip` need the message that says why;
/// - the run's counts, verdict and exit code follow from its cases (`RunResult.Tally`), the certification verdict
///   included;
/// - with the case files and catalog at hand, every requirement's verdict and case count and every profile's counts
///   follow from the cases (`RunResult.requirementOutcomes`, `coverage`);
/// - each requirement's `attested` is the verdict of its attestation.
extension ResultsDocument {
    /// The contradictions, in document order. `suite` and `catalog` (the ones the run used) let the requirement and
    /// profile entries be derived too; without them those entries are checked against the cases' own checks only.
    package func contradictions(suite: CaseSuite? = nil, catalog: Catalog? = nil) -> [String] {
        var problems: [String] = []
        var levels = Dictionary(requirements.map { ($0.id, $0.level) }, uniquingKeysWith: { first, _ in first })
        if let catalog {
            for requirement in catalog.requirements {
                if let recorded = levels[requirement.id], recorded != requirement.level.rawValue {
                    problems.append(
                        "results.json gives \(requirement.id) the level \(recorded), but the catalog gives it \(requirement.level.rawValue)")
                }
                levels[requirement.id] = requirement.level.rawValue
            }
        }
        for entry in cases { problems += entry.contradictions(levels: levels) }
        guard problems.isEmpty else { return problems }
        // The certification first: a case left out shows there by name, and only then in the exit code it changes.
        if let catalog { problems += certificationContradictions(catalog: catalog, suite: suite) }
        problems += outcomeContradictions(tally(suite: suite, catalog: catalog))
        if let suite, let catalog { problems += coverageContradictions(suite: suite, catalog: catalog) }
        let attested = Dictionary((attestations ?? []).map { ($0.requirement, $0.verdict) }, uniquingKeysWith: { first, _ in first })
        for requirement in requirements where requirement.attested != attested[requirement.id] {
            problems.append(
                "results.json marks \(requirement.id) attested \(requirement.attested ?? "not at all"), but its attestations say "
                    + (attested[requirement.id] ?? "nothing of it"))
        }
        return problems
    }

    /// The verdict rules' inputs, read from the cases; with the catalog (and the case files) the run used, the
    /// certification's shortfall is its programs' outcomes, as a run derives it (`RunResult.tally`).
    package func tally(suite: CaseSuite? = nil, catalog: Catalog? = nil) -> RunResult.Tally {
        var counts: [Verdict: Int] = [:]
        for entry in cases where entry.knownFailure == nil {
            if let verdict = Verdict(rawValue: entry.verdict) { counts[verdict, default: 0] += 1 }
        }
        return RunResult.Tally(
            total: cases.count, counts: counts,
            baselineProblems: !(outcome.baseline?.problems.isEmpty ?? true), incomplete: run.incomplete,
            suiteFault: cases.contains { $0.suiteFault != nil },
            configurationProblem: cases.contains { $0.configurationProblem != nil },
            // Only a certification falls short: an ordinary run of one profile (--filter) leaves the
            // others empty and is no shortfall.
            certificationShortfall: run.certification == true
                && (cases.contains { entry in
                    (entry.verdict == Verdict.skip.rawValue && entry.conditionUnmet != true && entry.knownFailure == nil)
                        || entry.notJudged != nil
                }
                    || (catalog.map { programOutcomes(catalog: $0, suite: suite).contains(where: \.failedBySuite) }
                        ?? (run.shard == nil && profiles.contains { $0.cases == 0 }))),
            adapterChanged: (run.adapters ?? []).contains { $0.sha256Before != nil && $0.sha256Before != $0.sha256 })
    }

    /// The certification programs' outcomes, derived from the cases under the rule a run uses (with the case files,
    /// each program's cases held against its complete case list); empty for a run that was no certification.
    package func programOutcomes(catalog: Catalog, suite: CaseSuite? = nil) -> [ProgramOutcome] {
        guard run.certification == true else { return [] }
        let programs = (run.certificationPrograms ?? catalog.programs.map(\.key)).compactMap { catalog.program($0) }
        let facts = cases.map { entry in
            ProgramOutcome.CaseFacts(
                id: entry.id, profile: entry.profile,
                verdict: entry.knownFailure != nil ? .pass : Verdict(rawValue: entry.verdict) ?? .error,
                untested: (entry.verdict == Verdict.skip.rawValue && entry.conditionUnmet != true && entry.knownFailure == nil)
                    || entry.notJudged != nil,
                requirements: entry.checks.map(\.requirement))
        }
        let attested = Dictionary(
            (attestations ?? []).compactMap { entry in Attestation.Verdict(rawValue: entry.verdict).map { (entry.requirement, $0) } },
            uniquingKeysWith: { first, _ in first })
        let toAttest = catalog.toAttest(for: programs)
        let changed = (run.adapters ?? []).filter { $0.sha256Before != nil && $0.sha256Before != $0.sha256 }.map(\.path)
        return programs.map { program in
            ProgramOutcome.judge(
                program, cases: facts, incomplete: run.incomplete, shard: run.shard, toAttest: toAttest, attested: attested,
                changedAdapters: changed, expected: suite.map { program.caseIDs(in: $0.cases) })
        }
    }

    /// The recorded certification outcome against the one its cases make.
    private func certificationContradictions(catalog: Catalog, suite: CaseSuite?) -> [String] {
        for key in run.certificationPrograms ?? [] where catalog.program(key) == nil {
            return ["results.json names the certification program '\(key)', which the catalog does not declare"]
        }
        let derived = programOutcomes(catalog: catalog, suite: suite).map { ProgramEntry($0, catalog: catalog) }
        let recorded = outcome.certification ?? []
        guard recorded != derived else { return [] }
        let describe = { (entries: [ProgramEntry]) in
            entries.isEmpty ? "none" : entries.map { "\($0.program) \($0.status)" + ($0.reason.map { " (\($0))" } ?? "") }.joined(separator: "; ")
        }
        return ["results.json records the certification \(describe(recorded)), but its cases make it \(describe(derived))"]
    }

    /// The outcome against the cases: verdict, exit code, counts.
    private func outcomeContradictions(_ tally: RunResult.Tally) -> [String] {
        var problems: [String] = []
        let verdict = RunResult.overall(tally).rawValue
        let exit = RunResult.exitStatus(tally).rawValue
        if outcome.verdict != verdict {
            problems.append("results.json records the verdict \(outcome.verdict), but its cases make it \(verdict)")
        }
        if outcome.exitCode != exit {
            problems.append("results.json records exit \(outcome.exitCode), but its cases make it exit \(exit)")
        }
        let counts = Dictionary(uniqueKeysWithValues: Verdict.allCases.map { ($0.rawValue, tally.counts[$0] ?? 0) })
        if outcome.counts != counts {
            problems.append("results.json records the counts \(Self.describe(outcome.counts)), but its cases count \(Self.describe(counts))")
        }
        return problems
    }

    /// The requirement and profile entries against the run rebuilt from the cases, the case files and the catalog.
    private func coverageContradictions(suite: CaseSuite, catalog: Catalog) -> [String] {
        let byID = Dictionary(suite.cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var results: [CaseResult] = []
        for entry in cases {
            guard let conformanceCase = byID[entry.id] else { return ["results.json lists case \(entry.id), which is not in the case files"] }
            guard let result = try? Self.result(entry, conformanceCase, file: "results.json") else {
                return ["results.json's case \(entry.id) cannot be read back"]
            }
            results.append(result)
        }
        let rebuilt = RunResult(
            results: results, catalog: catalog,
            provenance: Provenance(
                suiteVersion: self.suite.version, caseDigest: suite.digest,
                caseFileCount: 0, seed: 0, target: "", mode: "", jobs: 1, filter: nil, startedAt: "", duration: 0, command: ""),
            incomplete: run.incomplete)
        var problems: [String] = []
        let derived = Dictionary(rebuilt.requirementOutcomes.map { ($0.requirement.id, $0) }, uniquingKeysWith: { first, _ in first })
        for requirement in requirements {
            guard let outcome = derived[requirement.id] else {
                problems.append("results.json lists requirement \(requirement.id), which is not in the catalog")
                continue
            }
            let verdict = outcome.verdict?.rawValue ?? "not-covered"
            if requirement.verdict != verdict || requirement.cases != outcome.caseCount {
                problems.append(
                    "results.json records \(requirement.id) as \(requirement.verdict) over \(requirement.cases) cases, but its cases make "
                        + "it \(verdict) over \(outcome.caseCount)")
            }
        }
        let coverage = Dictionary(rebuilt.coverage(of: profiles.map(\.profile)).map { ($0.profile, $0) }, uniquingKeysWith: { first, _ in first })
        for profile in profiles {
            guard let derived = coverage[profile.profile] else { continue }
            if profile.cases != derived.total || profile.judged != derived.judged || profile.tested != derived.isTested {
                problems.append(
                    "results.json records profile \(profile.profile) with \(profile.judged) of \(profile.cases) cases judged, but its "
                        + "cases make it \(derived.judged) of \(derived.total)")
            }
        }
        return problems
    }

    static func describe(_ counts: [String: Int]) -> String {
        Verdict.allCases.map { "\(counts[$0.rawValue] ?? 0) \($0.rawValue)" }.joined(separator: ", ")
    }
}

extension ResultsDocument.CaseEntry {
    /// What this case records that its checks and fault contradict.
    func contradictions(levels: [String: String]) -> [String] {
        guard let verdict = Verdict(rawValue: verdict) else { return ["case \(id) has the verdict '\(self.verdict)', which is none"] }
        var problems: [String] = []
        var applicable: [Verdict] = []
        for check in checks {
            guard let level = Level(rawValue: check.level) else {
                problems.append("case \(id): a check of \(check.requirement) has the level '\(check.level)', which is none")
                continue
            }
            if let catalogLevel = levels[check.requirement], catalogLevel != check.level {
                problems.append("case \(id): its check of \(check.requirement) is at level \(check.level), but the requirement is \(catalogLevel)")
            }
            if check.notApplicable != nil {
                if check.verdict != "not-applicable" {
                    problems.append("case \(id): its check of \(check.requirement) did not apply, yet has the verdict \(check.verdict)")
                }
                continue
            }
            guard let checkVerdict = Verdict(rawValue: check.verdict), [.pass, .info, .warn, .fail].contains(checkVerdict) else {
                problems.append("case \(id): its check of \(check.requirement) has the verdict '\(check.verdict)', which a check cannot have")
                continue
            }
            if checkVerdict > level.violationVerdict {
                problems.append(
                    "case \(id): its \(check.level) check of \(check.requirement) is '\(check.verdict)', but a \(check.level) violation "
                        + "is '\(level.violationVerdict.rawValue)'")
            }
            applicable.append(checkVerdict)
        }
        guard problems.isEmpty else { return problems }
        let failed = applicable.contains(.fail)
        let expected: String?
        switch verdict {
        case _ where suiteFault != nil || configurationProblem != nil:
            expected = verdict == .error ? nil : "error (\(suiteFault != nil ? "a suite error" : "a configuration problem"))"
        case _ where failed:
            expected = verdict == .fail ? nil : "fail (a MUST check failed)"
        case .fail:
            expected = "no failure: no MUST check failed"
        case .pass, .info, .warn:
            let worst = applicable.max()
            expected = worst == verdict ? nil : worst.map { "\($0.rawValue), its worst check" } ?? "error: no check applied"
        case .error, .skip:
            expected = message == nil ? "a message saying why it is \(verdict.rawValue)" : nil
        }
        if conditionUnmet == true, verdict != .skip {
            return ["case \(id) is marked not applicable to the target, but its verdict is \(verdict.rawValue)"]
        }
        return expected.map { ["case \(id) records the verdict \(verdict.rawValue), but its checks make it \($0)"] } ?? []
    }
}
