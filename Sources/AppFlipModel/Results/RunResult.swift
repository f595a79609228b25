/// Everything a report writer needs: the results in case order, the catalog and the provenance.
package struct RunResult: Sendable {
    package var results: [CaseResult]
    package var catalog: Catalog
    package var provenance: Provenance
    /// True when the run stopped before every case finished.
    package var incomplete: Bool
    /// The baseline the run was judged with (`--baseline`): its file, and its entries that failed the run.
    package var baseline: BaselineUse?
    /// How many cases of each profile the run selected, so an interrupted run can say what it did not reach; empty
    /// when not known (a merged run).
    package var selected: [String: Int] = [:]

    /// The attestation of the requirement whose observable SHOULD companion `id` is (`TOK-GEN-006` for
    /// `TOK-GEN-006-S`), for reading beside that companion's warning: a note that cites a throttle is read beside the
    /// throttling probe's finding. Nil when `id` is no companion or its requirement was not attested.
    package func attestation(companionOf id: String) -> Attestation? {
        guard id.hasSuffix("-S") else { return nil }
        let base = String(id.dropLast(2))
        return attestations.first { $0.requirement == base }
    }

    /// The cases selected, when known.
    package var selectedCount: Int? { selected.isEmpty ? nil : selected.values.reduce(0, +) }

    /// What reviewers attested by hand (`--attest`): reported beside the verdicts, never counted in them.
    package var attestations: [Attestation] = []

    /// For a certification: each program's complete case list (program key to the IDs of the suite's cases it
    /// judges), against which the run's cases are held; a program without one is not checked for completeness.
    package var programCases: [String: [String]] = [:]

    package struct BaselineUse: Sendable, Hashable {
        package var path: String
        package var entries: Int
        package var problems: [Baseline.Problem]
        package var unexercised: [Baseline.Entry]
        /// The day (YYYY-MM-DD) the entries' expiry dates were judged against.
        package var judgedOn: String

        package init(path: String, entries: Int, problems: [Baseline.Problem], unexercised: [Baseline.Entry], judgedOn: String) {
            self.path = path
            self.entries = entries
            self.problems = problems
            self.unexercised = unexercised
            self.judgedOn = judgedOn
        }
    }

    package init(results: [CaseResult], catalog: Catalog, provenance: Provenance, incomplete: Bool = false) {
        self.results = results
        self.catalog = catalog
        self.provenance = provenance
        self.incomplete = incomplete
    }

    /// Cases of the verdict, a known failure (accepted by the baseline) counted under none: see `knownCount`.
    package func count(_ verdict: Verdict) -> Int { results.reduce(0) { $1.verdict == verdict && !$1.isKnown ? $0 + 1 : $0 } }

    /// Cases that judged nothing they test, though a finding of their setup or of the suite's own gave a verdict.
    package var notJudgedCount: Int { results.reduce(0) { $1.notJudged != nil ? $0 + 1 : $0 } }

    /// Cases that left something untested: skipped (not for a condition this target does not meet), or judged
    /// nothing they test. What a certification may not have.
    package var untestedCount: Int { results.reduce(0) { ($1.isUntested && !$1.isKnown) || $1.notJudged != nil ? $0 + 1 : $0 } }

    /// Failures and errors the baseline accepts for now.
    package var knownCount: Int { results.reduce(0) { $1.isKnown ? $0 + 1 : $0 } }

    /// Judges the results against a baseline on `today` (`YYYY-MM-DD`): accepted failures are marked known, and
    /// entries that expired or no longer match a failure are kept to fail the run.
    package mutating func apply(_ baseline: Baseline, today: String) {
        let judgement = baseline.judge(results, today: today)
        results = judgement.results
        self.baseline = BaselineUse(
            path: baseline.path, entries: baseline.entries.count, problems: judgement.problems,
            unexercised: judgement.unexercised, judgedOn: today)
    }

    /// The targets that could not be used before the run, each with the number of cases not sent, in order.
    package var unreachableTargets: [(target: UnreachableTarget, cases: Int)] {
        var order: [UnreachableTarget] = []
        var counts: [String: Int] = [:]
        for target in results.compactMap(\.unreachable) {
            if counts[target.key] == nil { order.append(target) }
            counts[target.key, default: 0] += 1
        }
        return order.map { ($0, counts[$0.key] ?? 0) }
    }

    /// Problems with the run's configuration that spoiled cases, each once, in order of appearance.
    package var configurationProblems: [String] {
        var seen = Set<String>()
        return results.compactMap(\.configurationProblem).filter { seen.insert($0).inserted }
    }

    /// The run's overall verdict: fail beats error beats warn; a run with no cases is an error; a run in which
    /// every case was skipped tested nothing and is `skip`, never a pass.
    package var overall: Verdict { Self.overall(tally) }

    package var exitStatus: ExitStatus { Self.exitStatus(tally) }

    /// What the verdict rules read of this run.
    package var tally: Tally {
        Tally(
            total: results.count, counts: Dictionary(uniqueKeysWithValues: Verdict.allCases.map { ($0, count($0)) }),
            baselineProblems: !(baseline?.problems.isEmpty ?? true), incomplete: incomplete,
            suiteFault: results.contains { $0.suiteFault != nil }, configurationProblem: !configurationProblems.isEmpty,
            certificationShortfall: provenance.certification
                && (untestedCount > 0 || programOutcomes.contains(where: \.failedBySuite)),
            adapterChanged: provenance.adapterFiles.contains(where: \.changed))
    }

    /// The numbers a run's verdict and exit status follow from: what `verify` recomputes from a results.json,
    /// under the same rules as the run that wrote it.
    package struct Tally: Sendable, Hashable {
        package var total: Int
        /// Cases per verdict, failures and errors a baseline accepts left out.
        package var counts: [Verdict: Int]
        package var baselineProblems: Bool
        package var incomplete: Bool
        package var suiteFault: Bool
        package var configurationProblem: Bool
        /// A certification run that left cases unjudged (skipped), or a profile of its programs without a case.
        package var certificationShortfall: Bool
        /// An adapter file changed while the cases ran: no single program was tested, so no verdict but a failure
        /// holds (exit 3).
        package var adapterChanged: Bool

        package init(
            total: Int, counts: [Verdict: Int], baselineProblems: Bool, incomplete: Bool, suiteFault: Bool, configurationProblem: Bool,
            certificationShortfall: Bool = false, adapterChanged: Bool = false
        ) {
            self.adapterChanged = adapterChanged
            self.total = total
            self.counts = counts
            self.baselineProblems = baselineProblems
            self.incomplete = incomplete
            self.suiteFault = suiteFault
            self.configurationProblem = configurationProblem
            self.certificationShortfall = certificationShortfall
        }
    }

    package static func overall(_ tally: Tally) -> Verdict {
        let count = { (verdict: Verdict) in tally.counts[verdict] ?? 0 }
        if tally.total == 0 { return .error }
        if count(.fail) > 0 || tally.baselineProblems { return .fail }
        if count(.error) > 0 { return .error }
        if count(.skip) == tally.total { return .skip }
        if count(.warn) > 0 { return .warn }
        if count(.info) > 0 { return .info }
        return .pass
    }

    package static func exitStatus(_ tally: Tally) -> ExitStatus {
        if tally.incomplete { return .interrupted }
        if tally.suiteFault { return .suiteFailure }
        if tally.adapterChanged, overall(tally) != .fail { return .inconclusive }
        switch overall(tally) {
        case .fail: return .nonConformant
        case .error: return tally.configurationProblem ? .configurationRejected : .inconclusive
        case .skip: return .nothingTested
        case .pass, .info, .warn: return tally.certificationShortfall ? .certificationIncomplete : .conformant
        }
    }
}
