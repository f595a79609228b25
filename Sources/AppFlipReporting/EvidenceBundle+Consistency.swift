import AppFlipModel
import Foundation

/// What a bundle proves, checked against itself: the verdict and exit code are worked out again from the cases in
/// results.json, under the rules a run uses (`RunResult.Tally`), and every field of the manifest that `verify` shows
/// must say what results.json, junit.xml and report.md say. Editing any one file (and its hash in the manifest)
/// leaves a contradiction that is reported; only a bundle forged whole and consistently passes, which no unsigned
/// file can rule out.
extension EvidenceBundle {
    static func contradictions(manifest: Manifest, document: ResultsDocument, junit: String?, report: String?) -> [String] {
        var problems: [String] = []
        let tally = tally(of: document)
        let verdict = RunResult.overall(tally).rawValue
        let exit = RunResult.exitStatus(tally).rawValue
        // results.json against its own cases.
        if document.outcome.verdict != verdict {
            problems.append("results.json records the verdict \(document.outcome.verdict), but its cases make it \(verdict)")
        }
        if document.outcome.exitCode != exit {
            problems.append("results.json records exit \(document.outcome.exitCode), but its cases make it exit \(exit)")
        }
        let counts = Dictionary(uniqueKeysWithValues: Verdict.allCases.map { ($0.rawValue, tally.counts[$0] ?? 0) })
        if document.outcome.counts != counts {
            problems.append("results.json records the counts \(describe(document.outcome.counts)), but its cases count \(describe(counts))")
        }
        // The manifest against results.json: every field verify shows.
        let fields: [(String, String, String)] = [
            ("verdict", manifest.verdict, verdict),
            ("exit code", String(manifest.exitCode), String(exit)),
            ("suite version", manifest.suiteVersion, document.suite.version),
            ("seed", String(manifest.seed), String(document.run.seed)),
            ("target", manifest.target, document.run.target),
            ("command", manifest.command, document.run.command),
            ("arguments", manifest.arguments.map { $0.joined(separator: "\u{0}") } ?? "-", document.run.arguments.map { $0.joined(separator: "\u{0}") } ?? "-"),
            ("start", manifest.startedAt ?? "-", document.run.startedAt ?? "-"),
        ]
        for (name, recorded, proven) in fields where recorded != proven {
            problems.append("the manifest's \(name) is not the one results.json records (\(shown(recorded)) against \(shown(proven)))")
        }
        // junit.xml's totals, as its writer counts them.
        let interrupted = document.run.incomplete ? 1 : 0
        let baselineProblems = document.outcome.baseline?.problems.count ?? 0
        if let junit {
            let expected = [("tests", tally.total + interrupted + baselineProblems), ("failures", (tally.counts[.fail] ?? 0) + baselineProblems),
                            ("errors", (tally.counts[.error] ?? 0) + interrupted)]
            let attributes = rootAttributes(of: junit)
            for (name, value) in expected where attributes[name] != String(value) {
                problems.append("junit.xml counts \(name)=\(attributes[name] ?? "nothing"), but results.json's cases make \(value)")
            }
        } else {
            problems.append("reports/junit.xml is missing")
        }
        // report.md's exit code line.
        if let report {
            if !report.contains("Exit code: \(exit).") { problems.append("report.md does not give the exit code \(exit) that results.json's cases make") }
        } else {
            problems.append("reports/report.md is missing")
        }
        return problems
    }

    /// The verdict rules' inputs, read from the cases a results.json lists.
    static func tally(of document: ResultsDocument) -> RunResult.Tally {
        var counts: [Verdict: Int] = [:]
        for entry in document.cases where entry.knownFailure == nil {
            if let verdict = Verdict(rawValue: entry.verdict) { counts[verdict, default: 0] += 1 }
        }
        return RunResult.Tally(total: document.cases.count, counts: counts,
                               baselineProblems: !(document.outcome.baseline?.problems.isEmpty ?? true), incomplete: document.run.incomplete,
                               suiteFault: document.cases.contains { $0.suiteFault != nil },
                               configurationProblem: document.cases.contains { $0.configurationProblem != nil },
                               certificationShortfall: document.run.certification == true
                                   && document.cases.contains { entry in
                                       (entry.verdict == Verdict.skip.rawValue && entry.conditionUnmet != true && entry.knownFailure == nil)
                                           || entry.notJudged != nil
                                   })
    }

    /// The attributes of junit.xml's `<testsuites>` element.
    private static func rootAttributes(of junit: String) -> [String: String] {
        guard let start = junit.range(of: "<testsuites"), let end = junit[start.upperBound...].firstIndex(of: ">") else { return [:] }
        var attributes: [String: String] = [:]
        for piece in junit[start.upperBound..<end].split(separator: "\"", omittingEmptySubsequences: false).chunked() {
            let name = piece.name.trimmingCharacters(in: .whitespaces).dropLast()  // `name=`
            attributes[String(name)] = piece.value
        }
        return attributes
    }

    private static func describe(_ counts: [String: Int]) -> String {
        Verdict.allCases.map { "\(counts[$0.rawValue] ?? 0) \($0.rawValue)" }.joined(separator: ", ")
    }

    private static func shown(_ text: String) -> String {
        "'" + (text.count > 80 ? String(text.prefix(80)) + "…" : text).replacingOccurrences(of: "\u{0}", with: " ") + "'"
    }
}

private extension Array where Element == Substring {
    /// `a="1" b="2"` split at its quotes, as (name, value) pairs.
    func chunked() -> [(name: Substring, value: String)] {
        stride(from: 0, to: count - 1, by: 2).map { (self[$0], String(self[$0 + 1])) }
    }
}
