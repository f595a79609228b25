import AppFlipModel

/// One line of a report's "Skipped": a profile, a reason and how many cases it skipped (or judged nothing they
/// test), however many cases share it.
package struct SkipLine: Sendable {
    package var profile: String
    package var reason: String
    package var count: Int

    /// The run's skip lines, in the order their first case ran.
    package static func lines(of run: RunResult) -> [SkipLine] {
        var lines: [SkipLine] = []
        for result in run.results where result.verdict == .skip || result.notJudged != nil {
            let profile = result.conformanceCase.profile.rawValue
            let reason =
                result.notJudged.map { "\(result.verdict.rawValue) on the suite's own finding, " + $0 }
                ?? conditionsUnmet(by: result, in: run) ?? result.message ?? "skipped"
            if let index = lines.firstIndex(where: { $0.profile == profile && $0.reason == reason }) {
                lines[index].count += 1
            } else {
                lines.append(SkipLine(profile: profile, reason: reason, count: 1))
            }
        }
        return lines
    }

    /// For a case not applicable to this target: the conditions (`applies_when`) of what it tests, in the catalog's
    /// words.
    private static func conditionsUnmet(by result: CaseResult, in run: RunResult) -> String? {
        guard result.conditionUnmet else { return nil }
        let setup = result.conformanceCase.setupRequirements
        let conditions = result.conformanceCase.requirements.compactMap { reference -> String? in
            guard !setup.contains(reference.id), let condition = run.catalog[reference.id]?.appliesWhen else { return nil }
            return "\(reference.id) applies only when \(condition)"
        }
        guard !conditions.isEmpty else { return nil }
        return "not applicable to this target (not missing from a certification): " + conditions.joined(separator: "; ")
            + " — " + (result.message ?? "")
    }
}
