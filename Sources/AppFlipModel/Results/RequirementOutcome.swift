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
        var verdicts: [Verdict] = []
        for result in cases {
            let own = result.checks.filter { $0.requirement.id == id && $0.isApplicable }.map(\.verdict)
            if !own.isEmpty {
                verdicts += own
            } else if result.verdict == .error {
                verdicts.append(.error)
            }
        }
        if verdicts.contains(.fail) { return .fail }
        if verdicts.contains(.error) { return .error }
        return verdicts.max() ?? .skip
    }
}

extension RunResult {
    /// Every catalog requirement in catalog order, with the cases naming it (computed in one pass over the
    /// results: requirements × cases would dominate report writing).
    package var requirementOutcomes: [RequirementOutcome] {
        var casesByRequirement: [String: [CaseResult]] = [:]
        for result in results {
            var seen = Set<String>()
            for reference in result.requirements where seen.insert(reference.id).inserted {
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
