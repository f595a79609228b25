import AppFlipBase

/// The result of one case: its verdict, every check, the evidence and how long it took.
package struct CaseResult: Sendable, Hashable {
    /// The stored members, kept in one shared box (`CopyOnWrite`): reports pass results around by the thousand,
    /// and a copy of the box is one reference where a copy of the members was some twenty.
    private struct Members: Hashable, Sendable {
        var conformanceCase: ConformanceCase
        var verdict: Verdict
        var texts: Texts
        var duration: Double
        /// What most results lack, boxed: nil when every note is empty.
        var rare: Rare?

        var notes: Notes {
            get {
                guard case .notes(let notes)? = rare else { return Notes() }
                return notes
            }
            set { rare = newValue == Notes() ? nil : .notes(newValue) }
        }
    }

    /// The members most results lack (a passing or failing case has no message, problem or baseline entry).
    private struct Notes: Hashable, Sendable {
        var message: String?
        var runFault: RunFault?
        var notJudged: String?
        var conditionUnmet = false
        var knownBy: [Baseline.Entry] = []
    }

    /// A box for `Notes` (value semantics: changed by replacing), one reference in the members.
    private indirect enum Rare: Hashable, Sendable {
        case notes(Notes)
    }

    /// The checks and the evidence as judged (boxed: a result holds them only until the run records it), or, once
    /// the run recorded the result, where the spool keeps them (`spool(into:)`): their outlines among its words and
    /// their texts in its file, some 32 bytes in all; or checks set after the run recorded the result (a code seen
    /// again, a configured credential found), kept here while the evidence stays in the spool.
    private enum Texts: Hashable, Sendable {
        indirect case plain([CheckResult], Evidence)
        case spooled(SpooledTexts)
        indirect case checksReplaced([CheckResult], SpooledTexts)

        var checks: [CheckResult] {
            switch self {
            case .plain(let checks, _), .checksReplaced(let checks, _): checks
            case .spooled(let texts): texts.checks
            }
        }

        func checks(where include: (CheckOutline) -> Bool) -> [CheckResult] {
            switch self {
            case .plain(let checks, _), .checksReplaced(let checks, _): checks.filter { include(CheckOutline($0)) }
            case .spooled(let texts): texts.checks(where: include)
            }
        }

        var outlines: [CheckOutline] {
            switch self {
            case .plain(let checks, _), .checksReplaced(let checks, _): checks.map(CheckOutline.init)
            case .spooled(let texts): texts.outlines
            }
        }

        var evidence: Evidence {
            switch self {
            case .plain(_, let evidence): evidence
            case .spooled(let texts), .checksReplaced(_, let texts): texts.evidence
            }
        }

        /// Whether the evidence is in the spool, not in memory.
        var evidenceIsSpooled: Bool {
            if case .plain = self { return false }
            return true
        }

        /// The texts with `checks` in place of the checks; spooled evidence stays spooled.
        func replacingChecks(_ checks: [CheckResult]) -> Texts {
            switch self {
            case .plain(_, let evidence): .plain(checks, evidence)
            case .spooled(let texts), .checksReplaced(_, let texts): .checksReplaced(checks, texts)
            }
        }

        static func == (lhs: Texts, rhs: Texts) -> Bool { lhs.checks == rhs.checks && lhs.evidence == rhs.evidence }
        func hash(into hasher: inout Hasher) {
            checks.hash(into: &hasher)
            evidence.hash(into: &hasher)
        }
    }

    private var storage: CopyOnWrite<Members>

    // The large members are read in place (`_read`): reports read `result.conformanceCase.id` and the checks of
    // 100,000 results several times each, and a plain getter would copy the whole case (a retain per field) per read.

    package var conformanceCase: ConformanceCase {
        _read { yield storage.value.conformanceCase }
        set { storage.value.conformanceCase = newValue }
    }
    package var verdict: Verdict {
        get { storage.value.verdict }
        set { storage.value.verdict = newValue }
    }
    /// Read from the spool on each read once spooled: read them once where many are needed.
    package var checks: [CheckResult] {
        _read { yield storage.value.texts.checks }
        set { storage.value.texts = storage.value.texts.replacingChecks(newValue) }
    }

    /// What each check judged, without its texts: all a count needs, and for a recorded result read without the file.
    package var checkOutlines: [CheckOutline] { storage.value.texts.outlines }

    /// Whether the evidence is in the run's spool (read from there on each read), not in memory.
    package var evidenceIsSpooled: Bool { storage.value.texts.evidenceIsSpooled }

    /// Moves the checks' texts and the evidence into the run's spool, keeping only the outlines here: what a run does
    /// to every result it records, so its memory does not grow with its texts. Reading them is unchanged (each read
    /// reads the spool: read them once where many are needed); setting the checks keeps them here and leaves the
    /// evidence in the spool, and setting the evidence keeps both here. When the spool cannot take them, they stay here.
    package mutating func spool(into spool: ResultSpool) {
        guard case .plain(let checks, let evidence) = storage.value.texts, !checks.isEmpty || evidence != Evidence(),
            let texts = SpooledTexts(checks: checks, evidence: evidence, into: spool)
        else { return }
        storage.value.texts = .spooled(texts)
    }
    /// For `error` and `skip`: what happened, in one sentence.
    package var message: String? {
        get { storage.value.notes.message }
        set { storage.value.notes.message = newValue }
    }
    /// Read from the spool on each read once spooled: read it once where many parts are needed.
    package var evidence: Evidence {
        _read { yield storage.value.texts.evidence }
        set { storage.value.texts = .plain(storage.value.texts.checks, newValue) }
    }
    /// Seconds spent on the case.
    package var duration: Double {
        get { storage.value.duration }
        set { storage.value.duration = newValue }
    }
    /// Set when the case says nothing of the target through the run's own fault: the suite's, the configuration's, a
    /// target unusable before the run (each said once for the run).
    package var runFault: RunFault? {
        get { storage.value.notes.runFault }
        set { storage.value.notes.runFault = newValue }
    }
    /// The problem, when the case could not be judged because the run's configuration is wrong.
    package var configurationProblem: String? {
        if case .configuration(let problem)? = runFault { return problem }
        return nil
    }
    /// What failed, when the suite itself failed (out of descriptors, memory or processes): the case judged nothing.
    package var suiteFault: String? {
        if case .suite(let fault)? = runFault { return fault }
        return nil
    }
    /// The target, when the case was not sent because a target it needs could not be used before the run.
    package var unreachable: UnreachableTarget? {
        if case .unreachable(let target)? = runFault { return target }
        return nil
    }
    /// The key of that target (an origin, or a handler's key).
    package var unreachableTarget: String? { unreachable?.key }
    /// Set when none of what the case tests could be judged, though a finding of the suite's own (a 5xx, a
    /// redirect that never reached the app) gave it its verdict: why. Not a certification pass.
    package var notJudged: String? {
        get { storage.value.notes.notJudged }
        set { storage.value.notes.notJudged = newValue }
    }
    /// For a skipped case: every requirement it tests is conditional, and this target's answers, which the sources
    /// allow, did not meet the condition (a server that does not rotate refresh tokens, nor advertise `iss`). Not
    /// applicable to this target: nothing is missing from a certification.
    package var conditionUnmet: Bool {
        get { storage.value.notes.conditionUnmet }
        set { storage.value.notes.conditionUnmet = newValue }
    }
    /// A skip that leaves something untested: not one whose requirements' condition this target does not meet.
    package var isUntested: Bool { verdict == .skip && !conditionUnmet }
    /// The baseline entries that accept this case's failure (or error) for now: the case is reported as a known
    /// failure and does not fail the run. Empty unless a baseline covers every failing check of the case.
    package var knownBy: [Baseline.Entry] {
        get { storage.value.notes.knownBy }
        set { storage.value.notes.knownBy = newValue }
    }

    /// A failure or error the baseline accepts for now.
    package var isKnown: Bool { !knownBy.isEmpty }

    package init(
        conformanceCase: ConformanceCase, verdict: Verdict, checks: [CheckResult], message: String? = nil,
        evidence: Evidence, duration: Double
    ) {
        storage = CopyOnWrite(
            Members(
                conformanceCase: conformanceCase, verdict: verdict, texts: .plain(checks, evidence), duration: duration,
                rare: message.map { .notes(Notes(message: $0)) }))
    }

    /// A judged case: its verdict is its worst applicable check. A case none of whose checks applied is an error:
    /// nothing was judged, so nothing can pass.
    /// `unmetConditions`: the reasons given to checks that did not apply because the target's answer, which the sources
    /// allow, did not meet their requirement's condition.
    package static func judged(
        _ conformanceCase: ConformanceCase, checks: [CheckResult], evidence: Evidence, duration: Double,
        unmetConditions: Set<String> = []
    ) -> CaseResult {
        // Read in one pass, no array made (every judged case comes here): the worst applicable verdict, and whether
        // an applicable check is a finding.
        var worstApplicable: Verdict?
        var applicableFinding = false
        for check in checks where check.isApplicable {
            worstApplicable = max(worstApplicable ?? check.verdict, check.verdict)
            applicableFinding = applicableFinding || check.isFinding
        }
        guard let worst = worstApplicable else {
            return CaseResult(
                conformanceCase: conformanceCase, verdict: .error, checks: checks,
                message: "no check applied to what the target did, so nothing was judged", evidence: evidence, duration: duration)
        }
        // None of what the case tests could be judged: skipped with why when nothing else was found; with a finding of
        // its setup or of the suite's own, that finding is the verdict, and the case still says it judged nothing else.
        let setup = conformanceCase.setupRequirements
        let declared = conformanceCase.requirements
        func isTested(_ check: CheckResult) -> Bool {
            !setup.contains(check.requirement.id) && declared.contains { $0.id == check.requirement.id }
        }
        // Usually a tested check applied, and the worst verdict stands; the list of tested checks is made only when not.
        var testedButNotApplied = false
        for check in checks where isTested(check) {
            if check.isApplicable {
                testedButNotApplied = false
                break
            }
            testedButNotApplied = true
        }
        if testedButNotApplied {
            let tested = checks.filter(isTested)
            var reasons: [String] = []
            for reason in tested.compactMap(\.notApplicable) where !reasons.contains(reason) { reasons.append(reason) }
            let why = "not judged: " + reasons.joined(separator: "; ")
            guard applicableFinding else {
                let unmet = tested.allSatisfy { unmetConditions.contains($0.notApplicable ?? "") }
                var result = CaseResult(
                    conformanceCase: conformanceCase, verdict: .skip, checks: checks,
                    message: unmet ? "not applicable to this target: " + reasons.joined(separator: "; ") : why,
                    evidence: evidence, duration: duration)
                result.conditionUnmet = unmet
                return result
            }
            var result = CaseResult(conformanceCase: conformanceCase, verdict: worst, checks: checks, evidence: evidence, duration: duration)
            result.notJudged = why
            return result
        }
        return CaseResult(conformanceCase: conformanceCase, verdict: worst, checks: checks, evidence: evidence, duration: duration)
    }

    /// The checks that applied and did not hold.
    package var findings: [CheckResult] { storage.value.texts.checks(where: \.isFinding) }

    /// The checks that did not apply to what the target did.
    package var notApplicable: [CheckResult] { checks.filter { !$0.isApplicable } }

    /// The requirements the case declares, then any other its checks judged (a case built at run time, such as a
    /// validate-url URL, declares none), each once.
    package var requirements: [RequirementReference] { Self.requirements(of: conformanceCase, outlines: checkOutlines) }

    /// `requirements` from checks already read.
    package static func requirements(of conformanceCase: ConformanceCase, checks: [CheckResult]) -> [RequirementReference] {
        requirements(of: conformanceCase, judged: checks.lazy.map(\.requirement))
    }

    /// `requirements` from outlines already read.
    package static func requirements(of conformanceCase: ConformanceCase, outlines: [CheckOutline]) -> [RequirementReference] {
        requirements(of: conformanceCase, judged: outlines.lazy.map(\.requirement))
    }

    private static func requirements(of conformanceCase: ConformanceCase, judged: some Sequence<RequirementReference>) -> [RequirementReference] {
        var list = FirstNamedRequirements(conformanceCase.requirements)  // each once already
        for reference in judged { list.add(reference) }
        return list.list
    }
}

extension CaseResult {
    /// The result once a protocol fault of the target (extra output after its answer) is charged to it: a
    /// violation already observed stays a failure, with the fault added; anything else becomes an error.
    package func addingProtocolFault(_ fault: String) -> CaseResult {
        var result = self
        if verdict == .fail {
            result.message = [message, "also a protocol fault: \(fault)"].compactMap { $0 }.joined(separator: "; ")
        } else {
            result.verdict = .error
            result.message = fault
        }
        return result
    }
}
