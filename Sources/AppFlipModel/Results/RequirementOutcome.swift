/// What a run found of one catalog requirement: the cases that name it and the verdict they give it. Every report
/// (report.md's matrix, results.json, the summary) reads it from here, so they cannot disagree.
package struct RequirementOutcome: Sendable {
    package var requirement: Requirement
    /// How many cases of the run name the requirement.
    package var caseCount: Int
    /// Whether one of them was not skipped.
    package var isJudged: Bool
    /// Nil when no case of the run names the requirement.
    package var verdict: Verdict?

    /// A requirement fails only when one of its own checks failed. A case in which none of its checks was judged
    /// counts as error when the case ended in error; checks that did not apply count for nothing. With nothing
    /// judged at all it is skipped.
    package static func verdict(of id: String, in cases: [CaseResult]) -> Verdict {
        var tally = Tally()
        for result in cases { tally.add(result.checkOutlines, of: result.verdict, for: id) }
        return tally.verdict
    }

    /// What the cases naming one requirement say of it, gathered case by case.
    struct Tally {
        private(set) var cases = 0
        private(set) var isJudged = false
        private var worst: Verdict?
        private var sawFail = false, sawError = false

        /// Adds one case: its checks' outlines (read once by the caller) and its verdict.
        mutating func add(_ checks: [CheckOutline], of caseVerdict: Verdict, for id: String) {
            cases += 1
            isJudged = isJudged || caseVerdict != .skip
            var judgedOwn = false
            for check in checks where check.isApplicable && check.requirement.id == id {
                judgedOwn = true
                sawFail = sawFail || check.verdict == .fail
                sawError = sawError || check.verdict == .error
                worst = max(worst ?? check.verdict, check.verdict)
            }
            if !judgedOwn, caseVerdict == .error {
                sawError = true
                worst = max(worst ?? .error, .error)
            }
        }

        var verdict: Verdict {
            if sawFail { return .fail }
            if sawError { return .error }
            return worst ?? .skip
        }
    }
}

extension RunResult {
    /// Every catalog requirement in catalog order, with how many cases name it and their verdict (computed in one pass
    /// over the results, each result's checks read once: requirements × cases would dominate report writing).
    package var requirementOutcomes: [RequirementOutcome] {
        var tallies: [String: RequirementOutcome.Tally] = [:]
        for result in results {
            // The outlines alone (a recorded result's texts are in the spool): once here for all its requirements.
            let checks = result.checkOutlines
            // A handful of requirements a case: each ID once, found by a linear look back (no set per case).
            let references = CaseResult.requirements(of: result.conformanceCase, outlines: checks)
            for (index, reference) in references.enumerated() where !references[..<index].contains(where: { $0.id == reference.id }) {
                tallies[reference.id, default: RequirementOutcome.Tally()].add(checks, of: result.verdict, for: reference.id)
            }
        }
        return catalog.requirements.map { requirement in
            let found = tallies[requirement.id]
            return RequirementOutcome(
                requirement: requirement, caseCount: found?.cases ?? 0, isJudged: found?.isJudged ?? false,
                verdict: found?.verdict)
        }
    }
}
