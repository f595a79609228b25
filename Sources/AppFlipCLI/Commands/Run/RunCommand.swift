import AppFlipBase
import AppFlipLoading
import AppFlipModel
import AppFlipReporting
import AppFlipRunner
import AppFlipSession
import Foundation

/// `run`: runs the cases against the configured target (a link handler, HTTP endpoints, a native app), writes
/// the reports, and exits with the verdict. The jobs are types of their own: the options (`RunOptions`), the selection
/// (`RunSelection`), the recorders its options pick (`RunRecorders`: the console, the reports, the bundle, the
/// summary) and the run itself with its record (`RunSession`, below the command line); this file puts them in order.
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
        let session = RunSession(
            description(options, arguments: arguments, certifying: !inputs.programs.isEmpty), suite: inputs.suite, catalog: inputs.catalog,
            programs: inputs.programs, baseline: inputs.baseline, attestations: inputs.attestations)
        let interruption = Interruption()
        interruption.start(console: console)
        defer { interruption.stop() }
        let recording = RunRecorders.recording(
            options, console: console, total: cases.count, suite: inputs.suite, catalog: inputs.catalog,
            attestations: session.recordedAttestations, baseline: inputs.baseline, today: session.today)
        return session.run(
            cases, recording: recording, console: console,
            interrupted: { [received = interruption.received] in received.withLock { $0 } != nil }
        ).exitStatus.rawValue
    }

    /// The run the options describe; `certifying`: a certification judges every case, the ones that wait out a declared
    /// lifetime too.
    private static func description(_ options: RunOptions, arguments: [String], certifying: Bool) -> RunDescription {
        let arguments = withSeed(arguments, options.assembly.configuration.seed)
        return RunDescription(
            targets: options.assembly.targets, configuration: options.assembly.configuration, profiles: options.profiles,
            mode: options.mode.rawValue, jobs: options.jobs, timeout: options.timeout, includeSlow: options.includeSlow || certifying,
            timeLimit: options.timeLimit, filters: options.filters, samples: options.samples, shard: options.shard?.description,
            arguments: arguments, command: commandLine(arguments), targetLabel: options.targetLabel, targetVersion: options.targetVersion,
            pinnedAdapterFiles: options.adapterFiles, runBy: options.runBy)
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
