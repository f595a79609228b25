import AppFlipModel
import AppFlipReporting
import Foundation

/// What a bundle proves, checked against itself: results.json's derived fields are derived again
/// (`ResultsDocument.contradictions`: each case's verdict from its checks, the outcome from the cases, requirements and
/// profiles from the bundled case files and catalog), and every field of the manifest that `verify` shows, the exit
/// code report.md gives, each case's verdict in report.md's list and in junit.xml, and junit.xml's totals must say
/// what results.json says. Editing any one file (and its hash in the manifest)
/// leaves a contradiction that is reported; only a bundle forged whole and consistently passes, which no unsigned
/// file can rule out.
extension EvidenceBundle {
    static func contradictions(
        manifest: Manifest, document: ResultsDocument, junit: String?, report: String?,
        suite: CaseSuite? = nil, catalog: Catalog? = nil
    ) -> [String] {
        // results.json against itself: every derived field derived again (case verdicts from their checks, the
        // outcome from the cases, requirements and profiles from the case files and catalog).
        var problems = document.contradictions(suite: suite, catalog: catalog)
        let tally = document.tally(suite: suite, catalog: catalog)
        let verdict = RunResult.overall(tally).rawValue
        let exit = RunResult.exitStatus(tally).rawValue
        // The manifest against results.json: every field verify shows.
        let fields: [(String, String, String)] = [
            ("verdict", manifest.verdict, verdict),
            ("exit code", String(manifest.exitCode), String(exit)),
            ("suite version", manifest.suiteVersion, document.suite.version),
            ("seed", String(manifest.seed), String(document.run.seed)),
            ("target", manifest.target, document.run.target),
            ("command", manifest.command, document.run.command),
            (
                "arguments", manifest.arguments.map { $0.joined(separator: "\u{0}") } ?? "-",
                document.run.arguments.map { $0.joined(separator: "\u{0}") } ?? "-"
            ),
            ("start", manifest.startedAt ?? "-", document.run.startedAt ?? "-"),
        ]
        for (name, recorded, proven) in fields where recorded != proven {
            problems.append("the manifest's \(name) is not the one results.json records (\(shown(recorded)) against \(shown(proven)))")
        }
        // junit.xml's totals, as its writer counts them.
        let interrupted = document.run.incomplete ? 1 : 0
        let baselineProblems = document.outcome.baseline?.problems.count ?? 0
        if let junit {
            let expected = [
                ("tests", tally.total + interrupted + baselineProblems), ("failures", (tally.counts[.fail] ?? 0) + baselineProblems),
                ("errors", (tally.counts[.error] ?? 0) + interrupted),
            ]
            let attributes = rootAttributes(of: junit)
            for (name, value) in expected where attributes[name] != String(value) {
                problems.append("junit.xml counts \(name)=\(attributes[name] ?? "nothing"), but results.json's cases make \(value)")
            }
        } else {
            problems.append("reports/junit.xml is missing")
        }
        // report.md's exit code line and its list of every case (as much of it as the report kept).
        if let report {
            if !report.contains("Exit code: \(exit).") {
                problems.append("report.md does not give the exit code \(exit) that results.json's cases make")
            }
            problems += reportCaseContradictions(report, document: document)
        } else {
            problems.append("reports/report.md is missing")
        }
        if let junit { problems += junitCaseContradictions(junit, document: document) }
        return problems
    }

    /// Each case report.md's every-case table lists, against results.json's verdict.
    private static func reportCaseContradictions(_ report: String, document: ResultsDocument) -> [String] {
        let verdicts = Dictionary(document.cases.map { ($0.id, $0.verdict) }, uniquingKeysWith: { first, _ in first })
        var problems: [String] = []
        for line in report.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 3, cells[1].hasPrefix("`"), cells[1].hasSuffix("`"), cells[1].count > 2 else { continue }
            let id = String(cells[1].dropFirst().dropLast())
            guard let recorded = verdicts[id], let shown = cells[2].split(separator: " ").last.map(String.init),
                Verdict(rawValue: shown) != nil
            else { continue }
            if shown != recorded { problems.append("report.md lists case \(id) as \(shown), but results.json records \(recorded)") }
        }
        return problems
    }

    /// Each `<testcase>` of junit.xml against results.json's verdict: a failure, an error, skipped, or none of them.
    private static func junitCaseContradictions(_ junit: String, document: ResultsDocument) -> [String] {
        // Keyed by the ID as junit.xml writes it (escaped as an attribute).
        let byID = Dictionary(document.cases.map { (XMLText.attribute($0.id), $0) }, uniquingKeysWith: { first, _ in first })
        var problems: [String] = []
        for piece in junit.components(separatedBy: "<testcase ").dropFirst() {
            guard let nameStart = piece.range(of: " name=\""), let nameEnd = piece[nameStart.upperBound...].firstIndex(of: "\"") else { continue }
            guard let entry = byID[String(piece[nameStart.upperBound..<nameEnd])] else { continue }
            let id = entry.id
            let body = piece.components(separatedBy: "</testcase>").first ?? piece
            let shown = body.contains("<failure ") ? "failure" : body.contains("<error ") ? "error" : body.contains("<skipped ") ? "skipped" : "none"
            let expected =
                entry.knownFailure != nil
                ? "skipped"
                : entry.verdict == "fail" ? "failure" : entry.verdict == "error" ? "error" : entry.verdict == "skip" ? "skipped" : "none"
            if shown != expected {
                problems.append("junit.xml shows case \(id) as \(shown == "none" ? "passed" : shown), but results.json records \(entry.verdict)")
            }
        }
        return problems
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

    private static func shown(_ text: String) -> String {
        "'" + (text.count > 80 ? String(text.prefix(80)) + "…" : text).replacingOccurrences(of: "\u{0}", with: " ") + "'"
    }
}

extension Array where Element == Substring {
    /// `a="1" b="2"` split at its quotes, as (name, value) pairs.
    fileprivate func chunked() -> [(name: Substring, value: String)] {
        stride(from: 0, to: count - 1, by: 2).map { (self[$0], String(self[$0 + 1])) }
    }
}

extension EvidenceBundle {
    /// The first suite version whose bundles carry report.html: an older bundle lacks it rightly.
    static let htmlSince = [0, 3, 0]

    /// report.html against results.json: the exit code it gives, and each case's verdict in its every-case table
    /// (`<tr data-case="…" data-f data-verdict="…">`). Missing, it is a problem for a bundle of a suite that writes it.
    package static func htmlContradictions(
        _ html: String?, document: ResultsDocument, suite: CaseSuite? = nil, catalog: Catalog? = nil
    ) -> [String] {
        guard let html else {
            let version = document.suite.version.split(separator: ".").map { Int($0) ?? 0 }
            return version.lexicographicallyPrecedes(htmlSince) ? [] : ["reports/report.html is missing"]
        }
        let exit = RunResult.exitStatus(document.tally(suite: suite, catalog: catalog)).rawValue
        var problems: [String] = []
        if !html.contains("<p>Exit code: \(exit). ") {
            problems.append("report.html does not give the exit code \(exit) that results.json's cases make")
        }
        let byID = Dictionary(document.cases.map { (HTMLText.text($0.id), $0.verdict) }, uniquingKeysWith: { first, _ in first })
        for piece in html.components(separatedBy: "<tr data-case=\"").dropFirst() {
            guard let idEnd = piece.firstIndex(of: "\""), let recorded = byID[String(piece[..<idEnd])],
                let verdictStart = piece.range(of: " data-verdict=\""), let verdictEnd = piece[verdictStart.upperBound...].firstIndex(of: "\"")
            else { continue }
            let shown = String(piece[verdictStart.upperBound..<verdictEnd])
            if shown != recorded {
                problems.append(
                    "report.html lists case \(HTMLText.unescaped(String(piece[..<idEnd]))) as \(shown), but results.json records \(recorded)")
            }
        }
        return problems
    }
}
