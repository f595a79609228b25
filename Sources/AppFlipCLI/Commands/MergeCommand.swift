import AppFlipLoading
import AppFlipModel
import AppFlipReporting
import AppFlipSuite
import Foundation

/// `merge RUN…`: the shards of one run (`--shard I/N`, each a reports directory or its results.json) combined into
/// one set of reports and one verdict, as if one machine had run every case.
enum MergeCommand {
    /// A path as the file system resolves it (absolute, symbolic links followed), to tell two spellings of one place.
    private static func resolved(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: absolute).resolvingSymlinksInPath().standardizedFileURL.path
    }

    static func main(_ arguments: [String], console: Console) -> Int32 {
        let parsed: Arguments
        do {
            parsed = try Arguments(arguments, CommandOptions.merge)
        } catch {
            return Command.usageError(error.message, usage: Usage.merge, console: console)
        }
        if parsed.has(.help) {
            console.out(.suite(Usage.merge))
            return 0
        }
        guard !parsed.positionals.isEmpty else {
            return Command.usageError("merge takes the shards' reports directories (or results.json files)", usage: Usage.merge, console: console)
        }
        let reports = (try? parsed.value(.reports)) ?? "Reports"
        // The merged reports would replace a shard's own results.json: the inputs are never written over.
        let target = Self.resolved(reports)
        for path in parsed.positionals {
            var isDirectory: ObjCBool = false
            let directory =
                FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
                ? path : (path as NSString).deletingLastPathComponent
            if Self.resolved(directory.isEmpty ? "." : directory) == target {
                return Command.usageError(
                    "--reports \(reports) holds the shard \(path): the merged reports would replace it; write them elsewhere",
                    usage: Usage.merge, console: console)
            }
        }
        if let problem = ReportFiles.problem(writing: reports) {
            console.err("error: --reports: \(problem)")
            return ExitStatus.usage.rawValue
        }
        var shards: [(document: ResultsDocument, file: String)] = []
        for path in parsed.positionals {
            do {
                shards.append(try ResultsDocument.load(run: path))
            } catch {
                console.err("error: \(error.message)")
                return ExitStatus.usage.rawValue
            }
        }
        // Shards of a certification are merged as the run was made: the suite's own cases and catalog, no baseline.
        if shards.contains(where: { $0.document.run.certification == true }) {
            for option in [CommandOption.baseline, .cases, .catalog] where !parsed.values(option).isEmpty {
                return Command.usageError(
                    "these shards are a certification run's, which takes no \(option.name): "
                        + (option == .baseline
                            ? "a certification accepts no known failure"
                            : "a certification judges the suite's own cases against its own catalog"),
                    usage: Usage.merge, console: console)
            }
        }
        guard
            let (catalog, suite) = SuiteLoading.load(
                cases: try? parsed.value(.cases), catalog: try? parsed.value(.catalog),
                console: console)
        else { return ExitStatus.usage.rawValue }
        var run: RunResult
        do {
            run = try ResultsDocument.merge(shards, suite: suite, catalog: catalog) { document in
                Self.selection(of: document, in: suite, catalog: catalog)
            }
        } catch {
            console.err("error: \(error.message)")
            return ExitStatus.usage.rawValue
        }
        // What merged is this binary's view: the cases and catalog it holds the shards to.
        run.provenance.catalogDigest = BuiltInSuite.digest(of: catalog)
        run.provenance.casesBuiltIn = suite.digest == BuiltInSuite.casesDigest
        run.provenance.catalogBuiltIn = run.provenance.catalogDigest == BuiltInSuite.catalogDigest
        var baseline: Baseline?
        if let path = try? parsed.value(.baseline) {
            do {
                // Applied to the merged results: a requirement entry may fail in one shard and pass in another.
                baseline = try BaselineLoader.load(path: path)
                if let baseline { run.apply(baseline, today: String(ISO8601DateFormatter().string(from: Date()).prefix(10))) }
            } catch {
                SuiteLoading.report(error, console: console)
                return ExitStatus.usage.rawValue
            }
            for problem in run.baseline?.problems ?? [] { console.err("BASELINE: \(problem.message)") }
        }
        let profiles = shards.first?.document.profiles.map(\.profile) ?? []
        let reproducible = parsed.has(.reproducible)
        let bundle = try? parsed.value(.bundle)
        let signingKey: [UInt8]?
        do {
            signingKey = try RunOptions.signingKey(parsed, bundle: bundle)
        } catch {
            return Command.usageError(error.message, usage: Usage.merge, console: console)
        }
        var attestations: AttestationFile?
        if let bundle {
            if let problem = ReportFiles.problem(
                writing: (bundle as NSString).deletingLastPathComponent.isEmpty
                    ? "." : (bundle as NSString).deletingLastPathComponent)
            {
                console.err("error: --bundle: \(problem)")
                return ExitStatus.usage.rawValue
            }
            switch Self.attestations(for: run, path: try? parsed.value(.attest), catalog: catalog) {
            case .success(let file): attestations = file
            case .failure(let problem):
                console.err("error: --attest: \(problem.message)")
                return ExitStatus.usage.rawValue
            }
        } else if (try? parsed.value(.attest)) != nil {
            return Command.usageError(
                "--attest goes with --bundle: the shards' attestations are merged from their results", usage: Usage.merge,
                console: console)
        }
        do throws(ReportFiles.Failure) {
            let set = ReportSet(run: run, profiles: profiles, reproducible: reproducible)
            if let bundle {
                // The bundle carries the very bytes written, as a single run's does.
                let files = set.render()
                try ReportFiles.save(files, into: reports)
                try BundleWriter.write(
                    bundle, reports: files, suite: suite, catalog: catalog, attestations: attestations, baseline: baseline,
                    signingKey: signingKey, run: run, reproducible: reproducible)
            } else {
                try ReportFiles.save(set.files, into: reports)
            }
            if let summary = try? parsed.value(.summary) {
                try ReportFiles.append(
                    MarkdownReport(run: run, profiles: profiles, reproducible: reproducible).renderSummary(reportsDirectory: reports),
                    to: summary)
            }
        } catch {
            console.err("error: the reports were not written: \(error.message)")
            return ExitStatus.reportsNotWritten.rawValue
        }
        let counts = Verdict.allCases.map { "\(run.count($0)) \($0.rawValue)" }.joined(separator: ", ")
        console.out(
            "\(run.results.count) cases from \(shards.count) shard\(shards.count == 1 ? "" : "s"): \(counts) — \(run.overall.rawValue) (exit \(run.exitStatus.rawValue))"
        )
        if run.provenance.certification { console.out(.suite(ProgramOutcome.headline(run.programOutcomes))) }
        console.out("reports: \(ReportSet.names.map { reports + "/" + $0 }.joined(separator: ", "))")
        return run.exitStatus.rawValue
    }

    /// The attestation file a merged bundle carries: none when the shards recorded none; else the file given, which
    /// must give exactly what they recorded (a bundle's attestations are read again by `verify`).
    private static func attestations(for run: RunResult, path: String?, catalog: Catalog) -> Result<AttestationFile?, ReportFiles.Failure> {
        guard !run.attestations.isEmpty else {
            return path == nil
                ? .success(nil)
                : .failure(ReportFiles.Failure(message: "the shards were given no --attest, so the merged run has no attestations to carry"))
        }
        guard let path else {
            return .failure(
                ReportFiles.Failure(message: "the shards were given attestations: give the same file with --attest, so the bundle carries it"))
        }
        let file: AttestationFile
        do {
            file = try AttestationLoader.load(path: path, catalog: catalog)
        } catch {
            return .failure(ReportFiles.Failure(message: error.diagnostics.map(\.description).joined(separator: "\n")))
        }
        let shape = { (attestation: Attestation) in
            [attestation.requirement, attestation.verdict.rawValue, attestation.by, attestation.date, attestation.note]
                + attestation.attachments.map { "\($0.bundlePath) \($0.sha256)" }
        }
        guard file.attestations.map(shape) == run.attestations.map(shape) else {
            return .failure(ReportFiles.Failure(message: "\(path) does not give what the shards recorded: give the file their runs were given"))
        }
        return .success(file)
    }

    /// The IDs of the cases a shard's run selected before `--shard`: its profiles and filters, against `suite`; nil
    /// when its arguments are not recorded, do not parse, or narrow the run to an earlier run's failures.
    static func selection(of document: ResultsDocument, in suite: CaseSuite, catalog: Catalog) -> Set<String>? {
        guard let words = document.run.arguments,
            let parsed = try? Arguments(words, CommandOptions.run), parsed.values(.rerunFailed).isEmpty
        else { return nil }
        guard let profiles = try? CertificationSelection.profiles(parsed) else { return nil }
        var programs: [CertificationProgram] = []
        if let names = CertificationSelection.names(parsed) {
            guard let named = try? CertificationSelection.programs(names, catalog: catalog) else { return nil }
            programs = named
        }
        let filter = CaseFilter(patterns: parsed.values(.filter))
        return Set(CertificationSelection.cases(suite.cases, profiles: profiles, filter: filter, programs: programs).map(\.id))
    }
}
