import AppFlipBase
import AppFlipDefects
import AppFlipModel
import AppFlipReporting
import AppFlipSystem
import Foundation

/// `detection`: runs every shipped defect against the suite and shows, requirement by requirement, the defects that
/// fail it; exit 0 only when each defect showed exactly what it names and every automated MUST is failed by one.
enum DetectionCommand {
    /// What `detection` was given: the defects to run, how many at once, the seed, where to keep the runs, or
    /// only the document.
    struct Options {
        var selection: [Defect]
        var jobs: Int
        var seed: UInt64
        var keep: String?
        var document: Bool

        /// Nil for `--help`.
        init?(_ arguments: [String]) throws(Arguments.UsageError) {
            let parsed = try Arguments(arguments, CommandOptions.detection)
            if parsed.has(.help) { return nil }
            guard parsed.positionals.isEmpty else { throw Arguments.UsageError(message: "detection takes no arguments, only options") }
            document = parsed.has(.document)
            keep = try parsed.value(.keep)
            let jobsText = try parsed.value(.detectionJobs)
            let seedText = try parsed.value(.detectionSeed)
            do throws(DetectionError) {
                selection = try DetectionCommand.select(parsed.values(.detectionDefect))
                jobs = try DetectionCommand.count(jobsText, name: "--jobs", default: ProcessInfo.processInfo.activeProcessorCount)
                seed = try seedText.map(DetectionCommand.parseSeed) ?? UInt64.random(in: 1...UInt64(Int64.max))
            } catch {
                throw Arguments.UsageError(message: error.description)
            }
        }
    }

    static func main(_ arguments: [String], console: Console) -> Int32 {
        let options: Options
        switch Command.options(arguments, usage: Usage.detection, console: console, Options.init) {
        case .success(let given): options = given
        case .failure(let exit): return exit.status
        }
        guard let catalog = SuiteLoading.loadCatalog(nil, console: console) else { return ExitStatus.usage.rawValue }
        if options.document {
            console.out(.suite(DetectionDocument.render(catalog)))
            return 0
        }
        let programs: DetectionPrograms
        switch DetectionPrograms.beside() {
        case .success(let found): programs = found
        case .failure(let error):
            console.err("error: \(error)")
            return ExitStatus.usage.rawValue
        }
        let work =
            options.keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("appflip-detection-\(ProcessInfo.processInfo.processIdentifier)-\(options.seed)")
        console.out("detection: \(options.selection.count) defects and variants, \(options.jobs) at once, seed \(options.seed)")
        let outcomes = DetectionPool.run(options.selection, jobs: options.jobs, seed: options.seed, programs: programs, work: work) { outcome in
            console.out(.suite(line(outcome, https: programs.https)))
        }
        return conclude(outcomes, options: options, catalog: catalog, programs: programs, work: work, console: console)
    }

    /// The tables, the counts and the exit status: 1 when a defect did not show what it names; 8 when every defect ran
    /// and some automated MUST is failed by none.
    private static func conclude(
        _ outcomes: [DetectionOutcome], options: Options, catalog: Catalog, programs: DetectionPrograms, work: URL, console: Console
    ) -> Int32 {
        let mismatched = outcomes.filter { !$0.differences(conditionMet: conditionMet($0.defect, https: programs.https)).isEmpty }
        let must = DetectionTable.observed(catalog, levels: DetectionTable.mustLevels, outcomes: outcomes)
        let should = DetectionTable.observed(catalog, levels: DetectionTable.shouldLevels, outcomes: outcomes)
        console.out("")
        console.out("MUST and MUST NOT, each with the defects that failed it:")
        console.out(.suite(must.consoleLines.joined(separator: "\n")))
        console.out("")
        console.out("SHOULD and SHOULD NOT, each with the defects that warned under it:")
        console.out(.suite(should.consoleLines.joined(separator: "\n")))
        console.out("")
        if !mismatched.isEmpty {
            console.out("\(mismatched.count) defect(s) did not show what they name: \(mismatched.map(\.defect.id).joined(separator: ", "))")
        }
        if options.keep == nil {
            if mismatched.isEmpty { try? FileManager.default.removeItem(at: work) } else { console.out("runs kept in \(work.path)") }
        }
        let ran = outcomes.filter { $0.defect.role == .defect }.count
        console.out(
            "detection: SHOULD/SHOULD NOT: \(should.detected.count) of \(should.requirements.count) warned under by a shipped defect")
        console.out(
            "detection: \(must.detected.count) of \(must.requirements.count) automated MUST/MUST NOT requirements failed by a shipped defect (\(ran) defects run)"
        )
        guard mismatched.isEmpty else { return ExitStatus.nonConformant.rawValue }
        let complete = options.selection.count == DefectCatalog.all.filter({ $0.role != .fixture }).count
        guard complete, !must.undetected.isEmpty else { return 0 }
        console.out("no shipped defect fails yet: \(must.undetected.map(\.id).joined(separator: ", "))")
        return ExitStatus.certificationIncomplete.rawValue
    }

    /// The catalog's defects and variants (never its fixtures), or those `names` picks.
    fileprivate static func select(_ names: [String]) throws(DetectionError) -> [Defect] {
        let runnable = DefectCatalog.all.filter { $0.role != .fixture }
        guard !names.isEmpty else { return runnable }
        var chosen: [Defect] = []
        for name in names {
            let matching = runnable.filter { $0.id == name || $0.name == name || $0.family.rawValue + "/" + $0.name == name }
            guard !matching.isEmpty else { throw DetectionError("--defect: no defect or variant is called '\(name)'") }
            chosen += matching.filter { entry in !chosen.contains(entry) }
        }
        return chosen
    }

    fileprivate static func count(_ text: String?, name: String, default fallback: Int) throws(DetectionError) -> Int {
        guard let text else { return max(1, fallback) }
        guard let number = Int(text), (1...64).contains(number) else { throw DetectionError("\(name) takes 1 to 64") }
        return number
    }

    fileprivate static func parseSeed(_ text: String) throws(DetectionError) -> UInt64 {
        guard let seed = UInt64(text) else { throw DetectionError("--seed takes a whole number") }
        return seed
    }

    static func conditionMet(_ defect: Defect, https: Bool) -> Bool {
        switch defect.condition {
        case nil: return true
        case .ownTLS: return https
        case .socketTable: return ListeningSockets.addresses(listeningOn: 1) != nil
        }
    }

    /// `ok  family/name: fails A, B (12 s)` or `MISMATCH family/name: …`.
    private static func line(_ outcome: DetectionOutcome, https: Bool) -> String {
        let met = conditionMet(outcome.defect, https: https)
        let differences = outcome.differences(conditionMet: met)
        let shown =
            [
                outcome.failed.isEmpty ? nil : "fails " + outcome.failed.sorted().joined(separator: ", "),
                outcome.warned.isEmpty ? nil : "warns " + outcome.warned.sorted().joined(separator: ", "),
            ].compactMap { $0 }.joined(separator: "; ")
        let what = shown.isEmpty ? "fails and warns nothing" : shown
        let time = " (\(Int(outcome.seconds.rounded())) s)"
        let note = met ? "" : " [\(outcome.defect.condition?.rawValue ?? "") not available here: nothing expected]"
        guard differences.isEmpty else {
            return "MISMATCH \(outcome.defect.id): \(what)\(time)\(note)\n" + differences.map { "    \($0)" }.joined(separator: "\n")
        }
        return "ok       \(outcome.defect.id): \(what)\(time)\(note)"
    }
}
