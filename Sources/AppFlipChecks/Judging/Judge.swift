import AppFlipBase
import AppFlipModel

/// Judges what a target did against a step's checks. Pure: the same inputs always give the same results.
///
/// Each check grades at its own group's requirement level; a check that does not apply to the observation is
/// reported as not applicable rather than failed, so a failure is always blamed on the requirement it breaks.
package struct Judge: Sendable {
    package var context: Template.Context

    package init(sentLink: String, configuration: RunConfiguration, generated: GeneratedValues) {
        self.context = Template.Context(configuration: configuration, generated: generated, sent: URLParts(sentLink).parameters)
    }

    /// A judge for any step: `context.sent` holds the parameters that were sent (query or form).
    package init(context: Template.Context) {
        self.context = context
    }

    /// Judges a link handler's answer.
    package func judge(_ checks: [CheckGroup], answer: HandlerAnswer) -> [CheckResult] {
        judge(checks, observation: .link(answer))
    }

    /// One result per check of an `all` group, one per `one_of` group.
    package func judge(_ checks: [CheckGroup], observation: Observation) -> [CheckResult] {
        // The opened URL's parameters read once for every check (a judge that has them already keeps them).
        var judge = self
        judge.read(observation)
        return judge.judgeOnce(checks, observation: observation)
    }

    /// Reads the opened URL's parameters into the context, once: the checks, and a caller keeping what they accepted
    /// (`IssuedCode`), use the same reading.
    package mutating func read(_ observation: Observation) {
        guard let url = observation.openedURL else {
            context.opened = nil
            return
        }
        if context.opened?.url != url { context.opened = (url, URLParts(url).parameters) }
    }

    private func judgeOnce(_ checks: [CheckGroup], observation: Observation) -> [CheckResult] {
        // Sized exactly: a case keeps this array for the rest of the run.
        var results: [CheckResult] = []
        results.reserveCapacity(
            checks.reduce(0) { count, group in
                if case .all(let all) = group.expectation { return count + all.count }
                return count + 1
            })
        for group in checks {
            if let condition = group.condition, let reason = unmet(condition, observation) {
                switch group.expectation {
                case .all(let checks):
                    for check in checks { results.append(.notApplicable(group.requirement, expected: expected(check), reason: reason)) }
                case .oneOf(let alternatives):
                    results.append(.notApplicable(group.requirement, expected: alternativesText(alternatives), reason: reason))
                }
                continue
            }
            switch group.expectation {
            case .all(let checks):
                for check in checks {
                    results.append(result(group.requirement, expected: expected(check), evaluate(check, observation)))
                }
            case .oneOf(let alternatives):
                results.append(judgeAlternatives(alternatives, group.requirement, observation))
            }
        }
        return results
    }

    private func result(_ requirement: RequirementReference, expected: String, _ outcome: CheckOutcome) -> CheckResult {
        switch outcome {
        case .held(let observed):
            return CheckResult(requirement: requirement, expected: expected, observed: observed, verdict: .pass)
        case .violated(let observed):
            return CheckResult(requirement: requirement, expected: expected, observed: observed, verdict: requirement.level.violationVerdict)
        case .notApplicable(let reason):
            return .notApplicable(requirement, expected: expected, reason: reason)
        }
    }

    /// A `one_of` group holds when every applicable check of one alternative holds; it does not apply when no
    /// alternative had an applicable check.
    private func judgeAlternatives(_ alternatives: [[AnyCheck]], _ requirement: RequirementReference, _ observation: Observation) -> CheckResult {
        let outcomes = alternatives.map { alternative in alternative.map { evaluate($0, observation) } }
        let expectedText = alternativesText(alternatives)
        func isApplicable(_ outcome: CheckOutcome) -> Bool {
            if case .notApplicable = outcome { return false }
            return true
        }
        func held(_ outcome: CheckOutcome) -> Bool {
            if case .held = outcome { return true }
            return false
        }
        let applicable = outcomes.map { $0.filter(isApplicable) }
        if applicable.allSatisfy(\.isEmpty) {
            let reason =
                outcomes.lazy.compactMap { $0.first }.compactMap { outcome -> String? in
                    if case .notApplicable(let reason) = outcome { return reason }
                    return nil
                }.first ?? "no alternative applies"
            return .notApplicable(requirement, expected: expectedText, reason: reason)
        }
        // An alternative counts only when something in it applied and all of that held.
        if let index = applicable.firstIndex(where: { !$0.isEmpty && $0.allSatisfy(held) }) {
            return CheckResult(
                requirement: requirement, expected: expectedText,
                observed: "(\(index + 1)) held: \(observation.summary)", verdict: .pass)
        }
        let observed = outcomes.enumerated().map { index, alternative in
            let miss =
                alternative.lazy.compactMap { outcome -> String? in
                    switch outcome {
                    case .violated(let observed): observed
                    case .notApplicable(let reason): "not applicable: \(reason)"
                    case .held: nil
                    }
                }.first ?? ""
            return "(\(index + 1)) \(miss)"
        }.joined(separator: "; ")
        return CheckResult(requirement: requirement, expected: expectedText, observed: observed, verdict: requirement.level.violationVerdict)
    }

    private func alternativesText(_ alternatives: [[AnyCheck]]) -> String {
        "one of: "
            + zip(alternatives.indices, alternatives).map { index, alternative in
                "(\(index + 1)) " + alternative.map(expected).joined(separator: ", ")
            }.joined(separator: "; ")
    }

    /// Why a group with a `when_status` condition is not judged on this observation, or nil when it is.
    private func unmet(_ condition: AnyCheck, _ observation: Observation) -> String? {
        switch evaluate(condition, observation) {
        case .held: nil
        case .violated(let observed): "the answer was \(observed), and this is judged only on \(expected(condition))"
        case .notApplicable(let reason): reason
        }
    }

    /// The sentence a report prints as "expected" for a check.
    package func expected(_ check: AnyCheck) -> String { check.base.expected(in: context) }

    /// Judges one check: not applicable when its scope does not fit the observation, else its own verdict.
    func evaluate(_ check: AnyCheck, _ observation: Observation) -> CheckOutcome {
        if let reason = check.base.applicability(observation) {
            return .notApplicable(reason: reason)
        }
        let outcome = check.base.evaluate(observation, in: context)
        // A result put in the fragment fails every check of the query: each says where the result is, so the cause
        // reads at once ("no state parameter" alone hides it).
        if case .violated(let observed) = outcome, check.base.scope == .openedURL, let misplaced = observation.resultInFragment {
            return .violated(observed: observed + "; " + misplaced)
        }
        return outcome
    }

    /// A one-line, redacted description of an answer.
    package func summary(_ answer: HandlerAnswer) -> String { Observation.link(answer).summary }

    /// A one-line, redacted description of what a step observed.
    package func summary(_ observation: Observation) -> String { observation.summary }
}
