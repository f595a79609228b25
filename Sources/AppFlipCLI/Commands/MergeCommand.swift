import AppFlipBase
import AppFlipEvidence
import AppFlipLoading
import AppFlipModel
import AppFlipReporting
import AppFlipSession
import AppFlipSuite
import Foundation

/// `merge RUN…`: the shards of one run (`--shard I/N`, each a reports directory or its results.json) combined into
/// one set of reports and one verdict, as if one machine had run every case.
enum MergeCommand {
    /// A path as the file system resolves it (absolute, symbolic links followed), to tell two spellings of one place.
    static func resolved(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: absolute).resolvingSymlinksInPath().standardizedFileURL.path
    }

    /// What `merge` was asked, read and checked before anything is loaded: the problem is a usage error.
    struct Options {
        var shards: [String]
        var reports: String
        var cases: String?
        var catalog: String?
        var baseline: String?
        var bundle: String?
        var signingKey: [UInt8]?
        var attest: String?
        var summary: String?
        var reproducible: Bool

        init(_ parsed: Arguments) throws(Arguments.UsageError) {
            guard !parsed.positionals.isEmpty else {
                throw Arguments.UsageError(message: "merge takes the shards' reports directories (or results.json files)")
            }
            shards = parsed.positionals
            reports = (try? parsed.value(.reports)) ?? "Reports"
            cases = try? parsed.value(.cases)
            catalog = try? parsed.value(.catalog)
            baseline = try? parsed.value(.baseline)
            bundle = try? parsed.value(.bundle)
            attest = try? parsed.value(.attest)
            summary = try? parsed.value(.summary)
            reproducible = parsed.has(.reproducible)
            signingKey = try RunOptions.signingKey(parsed, bundle: bundle)
            if bundle == nil, attest != nil {
                throw Arguments.UsageError(message: "--attest goes with --bundle: the shards' attestations are merged from their results")
            }
            // The merged reports would replace a shard's own results.json: the inputs are never written over.
            let target = MergeCommand.resolved(reports)
            for path in shards {
                var isDirectory: ObjCBool = false
                let directory =
                    FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
                    ? path : (path as NSString).deletingLastPathComponent
                if MergeCommand.resolved(directory.isEmpty ? "." : directory) == target {
                    throw Arguments.UsageError(
                        message: "--reports \(reports) holds the shard \(path): the merged reports would replace it; write them elsewhere")
                }
            }
        }

        /// Shards of a certification are merged as the run was made: the suite's own cases and catalog, no baseline.
        func certificationProblem(_ shards: [(document: ResultsDocument, file: String)]) -> String? {
            guard shards.contains(where: { $0.document.run.certification == true }) else { return nil }
            for (option, given) in [(CommandOption.baseline, baseline), (.cases, cases), (.catalog, catalog)] where given != nil {
                return "these shards are a certification run's, which takes no \(option.name): "
                    + (option == .baseline
                        ? "a certification accepts no known failure" : "a certification judges the suite's own cases against its own catalog")
            }
            return nil
        }
    }

    static func main(_ arguments: [String], console: Console) -> Int32 {
        let options: Options
        do {
            let parsed = try Arguments(arguments, CommandOptions.merge)
            if parsed.has(.help) {
                console.out(.suite(Usage.merge))
                return 0
            }
            options = try Options(parsed)
        } catch {
            return Command.usageError(error.message, usage: Usage.merge, console: console)
        }
        guard let shards = load(options, console: console) else { return ExitStatus.usage.rawValue }
        if let problem = options.certificationProblem(shards) { return Command.usageError(problem, usage: Usage.merge, console: console) }
        guard let (catalog, suite) = SuiteLoading.load(cases: options.cases, catalog: options.catalog, console: console),
            let baseline = loadBaseline(options.baseline, console: console)
        else { return ExitStatus.usage.rawValue }
        let session = MergeSession(suite: suite, catalog: catalog, baseline: baseline, today: UTCTimestamp.day(Date()))
        guard let run = merged(shards, session: session, console: console) else { return ExitStatus.usage.rawValue }
        let profiles = shards.first?.document.profiles.map(\.profile) ?? []
        guard let attestations = bundleAttestations(options, run: run, catalog: catalog, console: console) else { return ExitStatus.usage.rawValue }
        let recording = recording(
            profiles: profiles, options: options, suite: suite, catalog: catalog, attestations: attestations, baseline: baseline)
        if let problem = recording.end(run).problem {
            console.err("error: the reports were not written: \(problem)")
            return ExitStatus.reportsNotWritten.rawValue
        }
        let counts = Verdict.allCases.map { "\(run.count($0)) \($0.rawValue)" }.joined(separator: ", ")
        console.out(
            "\(run.results.count) cases from \(shards.count) shard\(shards.count == 1 ? "" : "s"): \(counts) — \(run.overall.rawValue) (exit \(run.exitStatus.rawValue))"
        )
        if run.provenance.certification { console.out(.suite(ProgramOutcome.headline(run.programOutcomes))) }
        console.out("reports: \(ReportSet.names.map { options.reports + "/" + $0 }.joined(separator: ", "))")
        return run.exitStatus.rawValue
    }

    /// Every shard's results, each read back and derived again; nil after saying which could not be read.
    private static func load(_ options: Options, console: Console) -> [(document: ResultsDocument, file: String)]? {
        if let problem = ReportFiles.problem(writing: options.reports) {
            console.err("error: --reports: \(problem)")
            return nil
        }
        var shards: [(document: ResultsDocument, file: String)] = []
        for path in options.shards {
            do {
                shards.append(try ResultsDocument.load(run: path))
            } catch {
                console.err("error: \(error.message)")
                return nil
            }
        }
        return shards
    }

    /// The shards as one run (`MergeSession`), each problem of the baseline said; nil after saying why they do not
    /// merge.
    private static func merged(_ shards: [(document: ResultsDocument, file: String)], session: MergeSession, console: Console) -> RunResult? {
        let run: RunResult
        do {
            run = try session.merged(shards) { document in Self.selection(of: document, in: session.suite, catalog: session.catalog) }
        } catch {
            console.err("error: \(error.message)")
            return nil
        }
        for problem in run.baseline?.problems ?? [] { console.err("BASELINE: \(problem.message)") }
        return run
    }

    /// The baseline at `path` (`.some(nil)` without one); nil after saying why it could not be read.
    private static func loadBaseline(_ path: String?, console: Console) -> Baseline?? {
        guard let path else { return .some(nil) }
        do {
            return .some(try BaselineLoader.load(path: path))
        } catch {
            SuiteLoading.report(error, console: console)
            return nil
        }
    }

    /// The attestations a merged bundle carries (`.some(nil)` without a bundle or without attestations); nil after
    /// saying why the bundle cannot be written.
    private static func bundleAttestations(_ options: Options, run: RunResult, catalog: Catalog, console: Console) -> AttestationFile?? {
        guard let bundle = options.bundle else { return .some(nil) }
        let directory = (bundle as NSString).deletingLastPathComponent
        if let problem = ReportFiles.problem(writing: directory.isEmpty ? "." : directory) {
            console.err("error: --bundle: \(problem)")
            return nil
        }
        switch Self.attestations(for: run, path: options.attest, catalog: catalog) {
        case .success(let file): return .some(file)
        case .failure(let problem):
            console.err("error: --attest: \(problem.message)")
            return nil
        }
    }

    /// The merged run's recorders: the reports (kept in memory too when a bundle carries them), the bundle, the
    /// summary.
    private static func recording(
        profiles: [String], options: Options, suite: CaseSuite, catalog: Catalog, attestations: AttestationFile?, baseline: Baseline?
    ) -> RunRecording {
        let files = FileRecorders(
            reports: options.reports, profiles: profiles, reproducible: options.reproducible,
            // The bundle carries the very bytes written, as a single run's does.
            bundle: options.bundle.map { path in
                FileRecorders.Bundle(
                    path: path, suite: suite, catalog: catalog, attestations: attestations, baseline: baseline, signingKey: options.signingKey)
            }, summary: options.summary)
        let recorders = files.recorders
        return RunRecording(recorders, reports: options.reports)
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
