import AppFlipBase
import AppFlipLoading
import AppFlipModel
import AppFlipRedaction
import AppFlipReporting
import AppFlipRunner
import AppFlipSystem
import Foundation

/// `run`: runs the cases against the configured target (a link handler, HTTP endpoints, a native app), writes
/// `junit.xml`, `report.md` and `results.json`, and exits with the verdict. The jobs are types of their own: the
/// options (`RunOptions`), the selection (`RunSelection`), the record of the run (`RunProvenance`) and the recorders
/// its options pick (`RunRecorders`: the console, the reports, the bundle, the summary); this file puts them in order.
enum RunCommand {
    /// What a run reads before it starts: the suite, the programs, a baseline, attestations.
    private struct Inputs {
        var catalog: Catalog
        var suite: CaseSuite
        var programs: [CertificationProgram] = []
        var baseline: Baseline?
        var attestations: AttestationFile?
    }

    /// What a caller may weigh once everything is read and selected, before anything is contacted: the target the
    /// command line names and the cases it would run. `verify --rerun` compares the adapters with the bundle's record.
    struct Preflight {
        var targets: TargetUnderTest
        var cases: [ConformanceCase]
        var options: RunOptions
    }

    /// Runs `arguments`; `only` narrows the selection to those case IDs (`verify --rerun`, which runs exactly a
    /// bundle's cases); `preflight` may refuse the run before its first case (it then exits 2, having said why).
    static func main(
        _ arguments: [String], console: Console, only: Set<String>? = nil, preflight: ((Preflight) -> Bool)? = nil
    ) -> Int32 {
        var options: RunOptions
        do {
            let parsed = try Arguments(arguments, CommandOptions.run)
            if parsed.has(.help) {
                console.out(.suite(Usage.run))
                return 0
            }
            options = try RunOptions(parsed)
            options.only = only
        } catch {
            return Command.usageError(error.message, details: error.details, usage: Usage.run, console: console, typed: arguments)
        }
        let server = options.assembly.referenceServer
        defer { server?.stop() }
        guard let inputs = read(&options, arguments: arguments, console: console) else { return ExitStatus.usage.rawValue }
        if let refused = refusesCertification(inputs, options: options, arguments: arguments, console: console) { return refused }
        switch RunSelection.select(from: inputs.suite, options: options, programs: inputs.programs, console: console) {
        case .exit(let status): return status
        case .cases(let cases):
            if let preflight, !preflight(Preflight(targets: options.assembly.targets, cases: cases, options: options)) {
                return ExitStatus.usage.rawValue
            }
            return execute(cases, inputs: inputs, options: options, arguments: arguments, console: console)
        }
    }

    /// Before anything is contacted: a certification whose cases could not all be judged is refused (exit 2, having
    /// said what the configuration lacks); one that does not record who ran it is warned about.
    private static func refusesCertification(_ inputs: Inputs, options: RunOptions, arguments: [String], console: Console) -> Int32? {
        let missing = ProgramNeedsCheck.missing(
            inputs.programs, cases: inputs.suite.cases, targets: options.assembly.targets,
            configuration: options.assembly.configuration)
        if !missing.isEmpty {
            return Command.usageError(
                "--certification: the configuration lacks \(missing.count) thing\(missing.count == 1 ? "" : "s") "
                    + "the program\(inputs.programs.count == 1 ? "" : "s") need\(inputs.programs.count == 1 ? "s" : ""), "
                    + "so some of \(inputs.programs.count == 1 ? "its" : "their") cases could not be judged "
                    + "(Documentation/Certification.md, \"Certification programs\"):",
                details: missing.map { "  " + $0.line }, usage: Usage.run, console: console, typed: arguments)
        }
        if !inputs.programs.isEmpty, AdapterDigests.runBy(given: options.runBy) == nil {
            // A reviewer signs a certification: who produced it belongs in it.
            console.err(
                "warning: who ran this certification is not recorded (no --operator, no CI job's variables, no $USER): "
                    + "give --operator NAME; the reports say \"not recorded\"")
        }
        return nil
    }

    /// Everything read before the run, each problem said on the console (nil: a usage error).
    private static func read(_ options: inout RunOptions, arguments: [String], console: Console) -> Inputs? {
        // Before anything runs: a run must never end with nowhere to write its reports.
        if let problem = ReportFiles.problem(writing: options.reports) {
            console.err("error: --reports: \(problem)")
            return nil
        }
        if let summary = options.summary, let problem = ReportFiles.problem(appending: summary) {
            console.err("error: --summary: \(problem)")
            return nil
        }
        guard let (catalog, suite) = SuiteLoading.load(cases: options.cases, catalog: options.catalog, console: console) else { return nil }
        var inputs = Inputs(catalog: catalog, suite: suite)
        do {
            if let names = options.certification {
                inputs.programs = try CertificationSelection.programs(names, catalog: catalog)
                if !inputs.programs.isEmpty { options.profiles = CertificationSelection.profiles(of: inputs.programs) }
            }
        } catch {
            _ = Command.usageError(error.message, details: error.details, usage: Usage.run, console: console, typed: arguments)
            return nil
        }
        do {
            if let path = options.baseline { inputs.baseline = try BaselineLoader.load(path: path) }
            if let path = options.attest {
                // Dated no later than today, and in a certification for its programs only.
                let bounds = AttestationLoader.Bounds(
                    latestDate: UTCTimestamp.day(Date()),
                    programs: inputs.programs.isEmpty ? nil : inputs.programs)
                inputs.attestations = try AttestationLoader.load(path: path, catalog: catalog, bounds: bounds)
            }
        } catch {
            SuiteLoading.report(error, console: console)
            return nil
        }
        return inputs
    }

    private static func execute(_ cases: [ConformanceCase], inputs: Inputs, options: RunOptions, arguments: [String], console: Console) -> Int32 {
        FreeMemory.release()
        let targets = options.assembly.targets
        var runner = Runner(configuration: options.assembly.configuration, timeout: options.timeout, jobs: options.jobs)
        // A certification judges every case, the ones that wait out a declared lifetime too.
        runner.includeSlow = options.includeSlow || !inputs.programs.isEmpty
        let started = RunProvenance.Started(at: UTCTimestamp.seconds(Date()), clock: Date())
        let interruption = Interruption()
        interruption.start(console: console)
        defer { interruption.stop() }
        let runRedactor = Redactor(secrets: targets.secrets)
        // Which build judged the target: the executable is hashed on a thread of its own while the cases run.
        _ = RunIdentity.executableDigest
        // The run's attestations are written by a person, so redacted like its other texts (the bundle's copy too).
        var attestations = inputs.attestations
        if let file = attestations { attestations?.bytes = Array(runRedactor.redact(String(decoding: file.bytes, as: UTF8.self)).utf8) }
        let recording = RunRecorders.recording(
            options, console: console, total: cases.count, suite: inputs.suite, catalog: inputs.catalog, attestations: attestations,
            baseline: inputs.baseline, today: String(started.at.prefix(10)))
        recording.record(
            .started(
                RunPlan(
                    cases: cases.count, profiles: options.profiles.map(\.rawValue), target: runRedactor.redact(targets.description),
                    jobs: options.jobs)))
        // What is tested is hashed before the first case as well as after the last: an adapter that changes in
        // between (one that runs a good app, then copies a broken one over itself) tested no single program.
        let adaptersBefore = AdapterDigests.files(of: targets, pinned: options.adapterFiles, ownDigest: nil)
        // `--time-limit`: no case starts after the deadline; those not reached are left out, as on an interruption.
        let deadline = options.timeLimit.map { Date().addingTimeInterval($0) }
        let results = runner.run(
            cases, targets: targets,
            shouldStop: { [received = interruption.received] in
                received.withLock { $0 } != nil || deadline.map { Date() >= $0 } == true
            },
            progress: { recording.record(.caseFinished($0)) })
        recording.record(.casesEnded)
        FreeMemory.release()
        if let limit = options.timeLimit, results.count < cases.count, interruption.signal == nil {
            console.err("time limit: \(Int(limit)) s reached after \(results.count) of \(cases.count) cases; the rest were not started")
        }
        // No process a handler started outlives the run: groups, leaders, and whatever carries this run's marks.
        targets.endProcesses()
        var provenance = RunProvenance.make(
            options: options, suite: inputs.suite, catalog: inputs.catalog, cases: cases, programs: inputs.programs,
            arguments: arguments, started: started)
        provenance.adapterFiles = provenance.adapterFiles.map { file in
            var file = file
            if let before = adaptersBefore.first(where: { $0.role == file.role && $0.path == file.path })?.sha256, before != file.sha256 {
                file.sha256Before = before
            }
            return file
        }
        for file in provenance.adapterFiles where file.changed {
            console.err(
                "ADAPTER CHANGED: \(file.role) \(file.path) hashed sha256 \(file.sha256Before ?? "") before the first case and "
                    + "\(file.sha256 ?? "(unreadable)") after the last: no single program was tested, and the run is no certification")
        }
        // The configured secrets are hidden in the provenance like everywhere else (a handler URL's password, a
        // secret a partner put on the adapter's command line).
        var run = RunResult(
            results: results, catalog: inputs.catalog, provenance: runRedactor.redact(provenance),
            incomplete: interruption.signal != nil || results.count < cases.count)
        run.selected = Dictionary(grouping: cases, by: \.profile.rawValue).mapValues(\.count)
        // Each program is held against its whole case list, not against what this run selected.
        for program in inputs.programs { run.programCases[program.key] = program.caseIDs(in: inputs.suite.cases) }
        if let file = inputs.attestations { run.attestations = file.attestations.map { $0.redacted(with: runRedactor) } }
        if let baseline = inputs.baseline { run.apply(baseline, today: String(started.at.prefix(10))) }
        return recording.end(run).exitStatus.rawValue
    }

    /// The arguments with `--seed` made explicit (before any handler command), so the command reproduces the run.
    static func withSeed(_ arguments: [String], _ seed: UInt64) -> [String] {
        if arguments.contains("--seed") { return arguments }
        var result = arguments
        result.insert(contentsOf: ["--seed", String(seed)], at: arguments.firstIndex(of: "--") ?? arguments.endIndex)
        return result
    }

    /// The command line as a reviewer would retype it, each argument shell-quoted when needed.
    static func commandLine(_ arguments: [String], subcommand: String = "run") -> String {
        CommandLineText.quoted(arguments, subcommand: subcommand, program: CommandLineText.invokedProgram())
    }
}
