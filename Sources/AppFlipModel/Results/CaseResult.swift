/// The result of one case: its verdict, every check, the evidence and how long it took.
package struct CaseResult: Sendable, Hashable {
    /// The stored members, kept in one shared box (copied on write): reports pass results around by the thousand,
    /// and a copy of the box is one reference where a copy of the members was some twenty.
    private struct Members: Hashable {
        var conformanceCase: ConformanceCase
        var verdict: Verdict
        var checks: [CheckResult]
        var message: String?
        var evidence: Evidence
        var duration: Double
        var configurationProblem: String?
        var suiteFault: String?
        var unreachableTarget: String?
        var knownBy: [Baseline.Entry] = []
    }

    /// Mutated only through `change`, which copies it first unless this value holds the only reference.
    private final class Box: @unchecked Sendable {
        var members: Members
        init(_ members: Members) { self.members = members }
    }

    private var box: Box

    private mutating func change(_ body: (inout Members) -> Void) {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.members) }
        body(&box.members)
    }

    // The large members are read in place (`_read`): reports read `result.conformanceCase.id` and the checks of
    // 100,000 results several times each, and a plain getter would copy the whole case (a retain per field) per read.

    package static func == (lhs: CaseResult, rhs: CaseResult) -> Bool { lhs.box === rhs.box || lhs.box.members == rhs.box.members }
    package func hash(into hasher: inout Hasher) { box.members.hash(into: &hasher) }

    package var conformanceCase: ConformanceCase {
        _read { yield box.members.conformanceCase }
        set { change { $0.conformanceCase = newValue } }
    }
    package var verdict: Verdict {
        get { box.members.verdict }
        set { change { $0.verdict = newValue } }
    }
    package var checks: [CheckResult] {
        _read { yield box.members.checks }
        set { change { $0.checks = newValue } }
    }
    /// For `error` and `skip`: what happened, in one sentence.
    package var message: String? {
        get { box.members.message }
        set { change { $0.message = newValue } }
    }
    package var evidence: Evidence {
        _read { yield box.members.evidence }
        set { change { $0.evidence = newValue } }
    }
    /// Seconds spent on the case.
    package var duration: Double {
        get { box.members.duration }
        set { change { $0.duration = newValue } }
    }
    /// Set when the case could not be judged because the run's configuration is wrong (said once for the run).
    package var configurationProblem: String? {
        get { box.members.configurationProblem }
        set { change { $0.configurationProblem = newValue } }
    }
    /// Set when the suite itself failed (out of descriptors, memory or processes): the case judged nothing.
    package var suiteFault: String? {
        get { box.members.suiteFault }
        set { change { $0.suiteFault = newValue } }
    }
    /// Set when the case was not sent because the origin it needs could not be reached before the run (said once
    /// for the run, not once per case).
    package var unreachableTarget: String? {
        get { box.members.unreachableTarget }
        set { change { $0.unreachableTarget = newValue } }
    }
    /// The baseline entries that accept this case's failure (or error) for now: the case is reported as a known
    /// failure and does not fail the run. Empty unless a baseline covers every failing check of the case.
    package var knownBy: [Baseline.Entry] {
        get { box.members.knownBy }
        set { change { $0.knownBy = newValue } }
    }

    /// A failure or error the baseline accepts for now.
    package var isKnown: Bool { !knownBy.isEmpty }

    package init(conformanceCase: ConformanceCase, verdict: Verdict, checks: [CheckResult], message: String? = nil,
                evidence: Evidence, duration: Double) {
        box = Box(Members(conformanceCase: conformanceCase, verdict: verdict, checks: checks, message: message,
                          evidence: evidence, duration: duration))
    }

    /// A judged case: its verdict is its worst applicable check. A case none of whose checks applied is an error:
    /// nothing was judged, so nothing can pass.
    package static func judged(_ conformanceCase: ConformanceCase, checks: [CheckResult], evidence: Evidence, duration: Double) -> CaseResult {
        let applicable = checks.filter(\.isApplicable)
        guard let worst = applicable.map(\.verdict).max() else {
            return CaseResult(conformanceCase: conformanceCase, verdict: .error, checks: checks,
                              message: "no check applied to what the target did, so nothing was judged", evidence: evidence, duration: duration)
        }
        return CaseResult(conformanceCase: conformanceCase, verdict: worst, checks: checks, evidence: evidence, duration: duration)
    }

    /// The checks that applied and did not hold.
    package var findings: [CheckResult] { checks.filter(\.isFinding) }

    /// The checks that did not apply to what the target did.
    package var notApplicable: [CheckResult] { checks.filter { !$0.isApplicable } }

    /// The requirements the case declares, then any other its checks judged (a case built at run time, such as a
    /// validate-url URL, declares none), each once.
    package var requirements: [RequirementReference] {
        // A case names a handful of requirements: a linear search beats hashing their IDs.
        var list: [RequirementReference] = []
        for reference in conformanceCase.requirements where !list.contains(reference) { list.append(reference) }
        for check in checks where !list.contains(check.requirement) { list.append(check.requirement) }
        return list
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
