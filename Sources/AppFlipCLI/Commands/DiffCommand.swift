import AppFlipEvidence
import AppFlipModel
import AppFlipReporting
import Foundation

/// `diff OLD NEW`: compares two runs' results.json (or their reports directories) and exits 1 when the new run
/// regressed: a case or a requirement that now fails or errs and did not before.
enum DiffCommand {
    /// What `diff` was given: the two runs, each a reports directory or a results.json.
    struct Options {
        var old: String
        var new: String

        /// Nil for `--help`.
        init?(_ arguments: [String]) throws(Arguments.UsageError) {
            let parsed = try Arguments(arguments, CommandOptions.diff)
            if parsed.has(.help) { return nil }
            guard parsed.positionals.count == 2 else {
                throw Arguments.UsageError(message: "diff takes two runs: OLD and NEW (reports directories or results.json files)")
            }
            old = parsed.positionals[0]
            new = parsed.positionals[1]
        }
    }

    static func main(_ arguments: [String], console: Console) -> Int32 {
        let options: Options
        switch Command.options(arguments, usage: Usage.diff, console: console, Options.init) {
        case .success(let given): options = given
        case .failure(let exit): return exit.status
        }
        guard let old = read(options.old, console: console), let new = read(options.new, console: console) else {
            return ExitStatus.usage.rawValue
        }
        describe(old, new, console: console)
        let diff = ResultsDiff(old: old.document, new: new.document)
        sections(diff, console: console)
        let counts = [
            ("regressed", diff.regressed.count), ("fixed", diff.fixed.count), ("changed", diff.changed.count),
            ("observed differently", diff.evidenceChanged.count), ("added", diff.added.count), ("removed", diff.removed.count),
        ]
        let status: ExitStatus = diff.hasRegression ? .nonConformant : .conformant
        let tally = counts.map { "\($0.1) \($0.0)" }.joined(separator: ", ")
        console.out("\(tally) — \(diff.hasRegression ? "REGRESSED" : "no regression") (exit \(status.rawValue))")
        return status.rawValue
    }

    /// Which runs are compared, and whether they used other case files or judged other targets.
    private static func describe(_ old: Loaded, _ new: Loaded, console: Console) {
        console.out("old: \(describe(old))")
        console.out("new: \(describe(new))")
        if old.suite.casesDigest != new.suite.casesDigest {
            console.out(
                "note: the runs used different case files (sha256 \(old.suite.casesDigest.prefix(12))… and \(new.suite.casesDigest.prefix(12))…)")
        }
        if old.run.target != new.run.target { console.out("note: the runs judged different targets") }
    }

    /// Every section of the comparison, the regressions first.
    private static func sections(_ diff: ResultsDiff, console: Console) {
        section("REGRESSED: newly failing or in error", diff.regressed, console: console, showDetail: true)
        section("FIXED", diff.fixed, console: console)
        section("CHANGED verdict", diff.changed, console: console)
        section("STILL FAILING, observed differently", diff.evidenceChanged, console: console, showDetail: true)
        section("ADDED", diff.added, console: console)
        section("REMOVED", diff.removed, console: console)
        section("REQUIREMENTS whose verdict changed", diff.requirements, console: console)
    }

    private struct Loaded {
        var document: ResultsDocument
        var path: String
        var suite: ResultsDocument.Suite { document.suite }
        var run: ResultsDocument.Run { document.run }
    }

    private static func read(_ path: String, console: Console) -> Loaded? {
        do {
            let (document, file) = try ResultsDocument.load(run: path, suite: SuiteLoading.builtIn(matching:))
            return Loaded(document: document, path: file)
        } catch {
            console.err("error: \(error.message)")
            return nil
        }
    }

    private static func describe(_ loaded: Loaded) -> String {
        let document = loaded.document
        return "\(loaded.path): \(document.outcome.verdict), \(document.cases.count) cases, suite \(document.suite.version), "
            + "seed \(document.run.seed)" + (document.run.startedAt.map { ", \($0)" } ?? "")
    }

    private static func section(_ title: String, _ changes: [ResultsDiff.Change], console: Console, showDetail: Bool = false) {
        guard !changes.isEmpty else { return }
        console.out("\(title) (\(changes.count)):")
        for change in changes {
            console.out("  \(change.id): \(change.old ?? "absent") → \(change.new ?? "absent")")
            if showDetail {
                for line in change.detail.prefix(5) { console.out("    \(line)") }
            }
        }
    }
}
