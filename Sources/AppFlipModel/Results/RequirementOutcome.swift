/// What a run found of one catalog requirement: the cases that name it and the verdict they give it. Every report
/// (report.md's matrix, results.json, the summary) reads it from here, so they cannot disagree.
package struct RequirementOutcome: Sendable {
    package var requirement: Requirement
    package var cases: [CaseResult]
    /// Nil when no case of the run names the requirement.
    package var verdict: Verdict?

    /// A requirement fails only when one of its own checks failed. A case in which none of its checks was judged
    /// counts as error when the case ended in error; checks that did not apply count for nothing. With nothing
    /// judged at all it is skipped.
    package static func verdict(of id: String, in cases: [CaseResult]) -> Verdict {
        // One pass, nothing allocated: a run of 100,000 cases asks this of every requirement.
        var worst: Verdict?
        var sawFail = false, sawError = false
        for result in cases {
            var judgedOwn = false
            for check in result.checks where check.isApplicable && check.requirement.id == id {
                judgedOwn = true
                sawFail = sawFail || check.verdict == .fail
                sawError = sawError || check.verdict == .error
                worst = max(worst ?? check.verdict, check.verdict)
            }
            if !judgedOwn, result.verdict == .error {
                sawError = true
                worst = max(worst ?? .error, .error)
            }
        }
        if sawFail { return .fail }
        if sawError { return .error }
        return worst ?? .skip
    }
}

extension RunResult {
    /// Every catalog requirement in catalog order, with the cases naming it (computed in one pass over the
    /// results: requirements × cases would dominate report writing).
    package var requirementOutcomes: [RequirementOutcome] {
        var casesByRequirement: [String: [CaseResult]] = [:]
        for result in results {
            // A handful of requirements a case: each ID once, found by a linear look back (no set per case).
            let references = result.requirements
            for (index, reference) in references.enumerated() where !references[..<index].contains(where: { $0.id == reference.id }) {
                casesByRequirement[reference.id, default: []].append(result)
            }
        }
        return catalog.requirements.map { requirement in
            let cases = casesByRequirement[requirement.id] ?? []
            return RequirementOutcome(requirement: requirement, cases: cases,
                                      verdict: cases.isEmpty ? nil : RequirementOutcome.verdict(of: requirement.id, in: cases))
        }
    }
}
