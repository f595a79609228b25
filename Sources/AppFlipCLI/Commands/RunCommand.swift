import AppFlipModel
import AppFlipReference
import AppFlipReporting
import AppFlipRunner
import AppFlipSetup
import AppFlipSuite
import AppFlipSystem
import Foundation

/// `run`: runs the cases against the configured target (a link handler, HTTP endpoints, a native app), writes
/// `junit.xml`, `report.md` and `results.json`, and exits with the verdict.
enum RunCommand {
    struct Options {
        var assembly: RunSetup
        var profiles: [Profile]
        var mode: SubprocessTarget.Mode
        var timeout: Double
        var jobs: Int
        var cases: String?
        var catalog: String?
        var filters: [String]
        var reports: String
        var reproducible: Bool
        var fileAttributes: Bool
        var includeSlow: Bool
        var samples: Int?
        var summary: String?
        var baseline: String?
        /// `--certification`: the programs named (empty: every program), or nil for no certification.
        var certification: [String]?
        var rerunFailed: String?
        var shard: Shard?
        var verbosity: RunProgress.Verbosity
        var color: RunProgress.ColorChoice
        var bundle: String?
        /// `--target-label`, else the configuration's `target_label`.
        var targetLabel: String?
        /// `--attest FILE`: what reviewers judged by hand.
        var attest: String?
        /// `--operator TEXT`: who ran the suite.
        var runBy: String?
    }

    static func main(_ arguments: [String], console: Console) -> Int32 {
        var options: Options
        do {
            let parsed = try Arguments(arguments, CommandOptions.run)
            if parsed.flags.contains("-h") || parsed.flags.contains("--help") {
                console.out(.suite(Usage.run))
                return 0
            }
            options = try makeOptions(parsed)
        } catch {
            return Command.usageError(error.message, details: error.details, usage: Usage.run, console: console, typed: arguments)
        }
        // Before anything runs: a run must never end with nowhere to write its reports.
        if let problem = ReportFiles.problem(writing: options.reports) {
            console.err("error: --reports: \(problem)")
            options.assembly.referenceServer?.stop()
            return ExitStatus.usage.rawValue
        }
        if let summary = options.summary, let problem = ReportFiles.problem(appending: summary) {
            console.err("error: --summary: \(problem)")
            options.assembly.referenceServer?.stop()
            return ExitStatus.usage.rawValue
        }
        guard let (catalog, suite) = SuiteLoading.load(cases: options.cases, catalog: options.catalog, console: console) else {
            options.assembly.referenceServer?.stop()
            return ExitStatus.usage.rawValue
        }
        var programs: [CertificationProgram] = []
        if let names = options.certification {
            do {
                programs = try CertificationSelection.programs(names, catalog: catalog)
            } catch {
                options.assembly.referenceServer?.stop()
                return Command.usageError(error.message, details: error.details, usage: Usage.run, console: console, typed: arguments)
            }
        }
        if !programs.isEmpty { options.profiles = CertificationSelection.profiles(of: programs) }
        var baseline: Baseline?
        if let path = options.baseline {
            do {
                baseline = try BaselineLoader.load(path: path)
            } catch {
                SuiteLoading.report(error, console: console)
                options.assembly.referenceServer?.stop()
                return ExitStatus.usage.rawValue
            }
        }
        var attestations: AttestationFile?
        if let path = options.attest {
            do {
                attestations = try AttestationLoader.load(path: path, catalog: catalog)
            } catch {
                SuiteLoading.report(error, console: console)
                options.assembly.referenceServer?.stop()
                return ExitStatus.usage.rawValue
            }
        }
        defer { options.assembly.referenceServer?.stop() }
        let filter = CaseFilter(patterns: options.filters)
        var selected = CertificationSelection.cases(suite.cases, profiles: options.profiles, filter: filter, programs: programs)
        if let directory = options.rerunFailed {
            guard let failed = Self.failedCases(in: directory, console: console) else {
                options.assembly.referenceServer?.stop()
                return ExitStatus.usage.rawValue
            }
            let known = Set(suite.cases.flatMap { [$0.id] + $0.formerly })
            let gone = failed.subtracting(known)
            if !gone.isEmpty {
                console.err("note: \(gone.count) case\(gone.count == 1 ? "" : "s") that failed there no longer exist: \(gone.sorted().prefix(5).joined(separator: ", "))")
            }
            selected = selected.filter { conformanceCase in failed.contains { conformanceCase.isNamed($0) } }
        }
        if let shard = options.shard {
            selected = selected.filter { shard.contains($0.id) }
            if selected.isEmpty {
                console.err("note: shard \(shard) selects none of the cases; nothing to run")
                options.assembly.referenceServer?.stop()
                return 0
            }
        }
        if let samples = options.samples {
            selected = selected.map { $0.sampled(samples) }
            if let problem = expansionProblem(selected) {
                console.err("error: --samples \(samples): \(problem)")
                return ExitStatus.usage.rawValue
            }
        }
        guard !selected.isEmpty else {
            console.err("error: no case matches the profiles (\(options.profiles.map(\.rawValue).joined(separator: ", ")))"
                        + (options.filters.isEmpty ? "" : " and --filter \(options.filters.joined(separator: " --filter "))"))
            return ExitStatus.usage.rawValue
        }
        return execute(selected, suite: suite, catalog: catalog, baseline: baseline, attestations: attestations, options: options,
                       programs: programs, arguments: arguments, console: console)
    }

    private static func execute(_ cases: [ConformanceCase], suite: CaseSuite, catalog: Catalog, baseline: Baseline?,
                                attestations: AttestationFile?, options: Options, programs: [CertificationProgram], arguments: [String],
                                console: Console) -> Int32 {
        let targets = options.assembly.targets
        var runner = Runner(configuration: options.assembly.configuration, timeout: options.timeout, jobs: options.jobs)
        runner.includeSlow = options.includeSlow
        let startedAt = ISO8601DateFormatter().string(from: Date())
        let today = String(startedAt.prefix(10))
        let clock = Date()
        let interruption = Interruption()
        interruption.start(console: console)
        defer { interruption.stop() }
        let runRedactor = Redactor(secrets: targets.secrets)
        // Which build judged the target: the executable is hashed while the cases run.
        let executableDigest = RunIdentity.executableDigest
        let quiet = options.verbosity == .quiet
        if !quiet {
            console.err("running \(cases.count) cases (\(options.profiles.map(\.rawValue).joined(separator: ", "))) against \(runRedactor.redact(targets.description)) with \(options.jobs) jobs")
        }
        let display = RunProgress(console: console, total: cases.count, verbosity: options.verbosity,
                                  color: options.color.enabled(isTerminal: console.errIsTerminal, environment: ProcessInfo.processInfo.environment))
        let printed = PrintedCases()
        let results = runner.run(cases, targets: targets, shouldStop: { interruption.signal != nil }, progress: { result in
            // Skips are summed up after the run, one line per profile and reason, not one per case.
            guard result.verdict != .pass, result.verdict != .skip, result.configurationProblem == nil, result.unreachableTarget == nil else {
                display.finished(result, line: nil)
                return
            }
            // Called on a worker's judging thread for every failing case: no copy of the result without a baseline,
            // no line built that --quiet will not print.
            var result = result
            if let baseline { result.knownBy = baseline.accepting(result, today: today) }
            printed.record(result)
            // The same target error in case after case (a handler that answers nothing usable) is said once.
            let repeated = printed.repeatsError(result)
            display.finished(result, line: quiet || repeated ? nil : progressLine(result))
        })
        display.finish()
        if !quiet {
            for (message, more) in printed.repeatedErrors {
                display.print("ERROR \(more) more case\(more == 1 ? "" : "s") with the same error: \(message)", verdict: .error)
            }
        }
        // No process a handler started outlives the run: groups, leaders, and whatever carries this run's marks.
        targets.linkHandler?.endProcesses()
        targets.nativeClient?.endProcesses()
        targets.androidHandler?.endProcesses()
        // Checks judged across the whole run (a code seen twice, the codes' entropy) and faults found later (a late
        // extra answer) change verdicts at the end: every case whose final verdict differs from what the console
        // showed is printed again, so the console agrees with the summary and junit.xml.
        for result in results where result.configurationProblem == nil && result.unreachableTarget == nil
            && printed.verdict(of: result.conformanceCase.id) != result.verdict {
            guard (result.verdict != .pass && result.verdict != .skip) || printed.verdict(of: result.conformanceCase.id) != nil else { continue }
            let revised = printed.verdict(of: result.conformanceCase.id).map { " (revised: was \($0.rawValue.uppercased()))" } ?? ""
            if !quiet { display.print(progressLine(result) + "\(revised)", verdict: result.verdict) }
        }
        var provenance = Provenance(
            suiteVersion: SuiteVersion.current, caseDigest: suite.digest, caseFileCount: suite.files.count,
            seed: options.assembly.configuration.seed, target: targets.description, mode: options.mode.rawValue, jobs: options.jobs,
            filter: options.filters.isEmpty ? nil : options.filters.joined(separator: " "), startedAt: startedAt,
            duration: Date().timeIntervalSince(clock), command: commandLine(Self.withSeed(arguments, options.assembly.configuration.seed)))
        provenance.samples = options.samples
        provenance.certificationPrograms = programs.map(\.key)
        provenance.shard = options.shard?.description
        provenance.runArguments = Self.withSeed(arguments, options.assembly.configuration.seed)
        provenance.targetLabel = options.targetLabel
        provenance.executableSHA256 = executableDigest.value()
        provenance.adapterFiles = AdapterDigests.files(of: targets, ownDigest: provenance.executableSHA256)
        provenance.runBy = AdapterDigests.runBy(given: options.runBy)
        provenance.host = Platform.hostName
        provenance.sourceCommit = SuiteVersion.sourceCommit
        provenance.platform = RunIdentity.platform
        provenance.toolchain = RunIdentity.toolchain
        provenance.transport = TransportSurvey.survey(cases, targets: targets, timeout: options.timeout)
        if let startup = targets.linkHandler?.startupReport(timeout: options.timeout) {
            provenance.handlerStartup = startup.policy
            provenance.handlerStartupMeasured = startup.measured
        }
        // The configured secrets are hidden in the provenance like everywhere else (a handler URL's password, a
        // secret a partner put on the adapter's command line).
        var run = RunResult(results: results, catalog: catalog, provenance: runRedactor.redact(provenance),
                            incomplete: interruption.signal != nil || results.count < cases.count)
        run.selected = Dictionary(grouping: cases, by: \.profile.rawValue).mapValues(\.count)
        var attestations = attestations
        if let file = attestations {
            // Written by a person, so redacted like the run's other texts (the bundle's copy of the file too);
            // printed apart from the verdicts.
            run.attestations = file.attestations.map { $0.redacted(with: runRedactor) }
            attestations?.bytes = Array(runRedactor.redact(String(decoding: file.bytes, as: UTF8.self)).utf8)
            for attestation in run.attestations where !quiet { console.err("attested by hand (not judged by the suite): \(attestation.summary)") }
        }
        if let baseline {
            run.apply(baseline, today: today)
            for problem in run.baseline?.problems ?? [] { console.err("BASELINE: \(problem.message)") }
        }
        if !quiet { for line in Self.skipLines(run.results) { display.print(line, verdict: .skip) } }
        for (origin, count) in run.unreachableTargets {
            let message = results.first { $0.unreachableTarget == origin }?.message ?? origin
            console.err("TARGET UNREACHABLE: \(message.replacingOccurrences(of: "not sent: ", with: "")) — \(count) case\(count == 1 ? "" : "s") not sent")
        }
        for problem in run.configurationProblems {
            let spoiled = run.results.filter { $0.configurationProblem == problem }.count
            console.err("CONFIGURATION PROBLEM: \(problem) (\(spoiled) cases)")
        }
        let writing = Date()
        var writeProblem: String?
        do {
            let reports = ReportSet(run: run, profiles: options.profiles.map(\.rawValue), reproducible: options.reproducible,
                                    fileAttributes: options.fileAttributes)
            if let bundle = options.bundle {
                // The bundle carries the very bytes written, so they are rendered once, in memory.
                let files = reports.render()
                try ReportFiles.save(files, into: options.reports)
                try Self.writeBundle(bundle, files: files, suite: suite, catalog: catalog, attestations: attestations, options: options, run: run)
            } else {
                try ReportFiles.save(reports.files, into: options.reports)
            }
            if let summary = options.summary {
                try ReportFiles.append(MarkdownReport(run: run, profiles: options.profiles.map(\.rawValue), reproducible: options.reproducible)
                    .renderSummary(reportsDirectory: options.reports), to: summary)
            }
        } catch {
            writeProblem = error.message
        }
        let counts = Verdict.allCases.map { "\(run.count($0)) \($0.rawValue)" }.joined(separator: ", ")
            + (run.baseline == nil ? "" : ", \(run.knownCount) known (baseline)")
        let word: String
        switch run.exitStatus {
        case .conformant: word = "conformant"
        case .nonConformant: word = "NOT conformant"
        case .inconclusive: word = "inconclusive"
        case .usage: word = "invalid"
        case .nothingTested: word = "NOTHING TESTED: every case was skipped"
        case .configurationRejected: word = "CONFIGURATION PROBLEM: cases could not be judged"
        case .reportsNotWritten: word = "reports not written"
        case .suiteFailure: word = "SUITE ERROR: the suite ran out of resources; no verdict (lower --jobs, or raise ulimit -n)"
        case .certificationIncomplete: word = "NOT A CERTIFICATION PASS: \(run.untestedCount) cases were not judged (see the report)"
        case .interrupted: word = "INTERRUPTED: \(results.count) of \(cases.count) cases ran; reports are marked incomplete"
        }
        let untested = run.coverage(of: options.profiles.map(\.rawValue)).filter { !$0.isTested }
            .map { "\($0.profile) (\($0.reason))" }
        let scope = untested.isEmpty ? "" : "; NOT TESTED: " + untested.joined(separator: ", ")
        if !quiet { for line in RootCauseLines.lines(run) { console.out(line) } }
        // The verdict is printed even when the reports could not be written: the console is then the only record.
        console.out("\(results.count) cases: \(counts) — \(word)\(scope) (exit \((writeProblem == nil ? run.exitStatus : .reportsNotWritten).rawValue))")
        if run.provenance.certification { console.out(.suite(ProgramOutcome.headline(run.programOutcomes))) }
        if let writeProblem {
            console.err("error: the reports were not written (the old ones, if any, are untouched): \(writeProblem)")
            return ExitStatus.reportsNotWritten.rawValue
        }
        let writeMilliseconds = Date().timeIntervalSince(writing) * 1000
        let written = ReportSet.names.map { options.reports + "/" + $0 }.joined(separator: ", ")
        console.out("reports: \(written) (written in \(String(format: "%.1f", writeMilliseconds)) ms; cases ran in \(String(format: "%.2f", provenance.duration)) s)")
        return run.exitStatus.rawValue
    }

    /// `SKIP 12 authorize cases: the authorize endpoint is not configured`, once per profile and reason.
    static func skipLines(_ results: [CaseResult]) -> [ConsoleText] {
        var order: [String] = []
        var counts: [String: Int] = [:]
        for result in results where result.verdict == .skip {
            let key = "\(result.conformanceCase.profile.rawValue)\u{0}\(result.message ?? "skipped")"
            if counts[key] == nil { order.append(key) }
            counts[key, default: 0] += 1
        }
        return order.map { key in
            let parts = key.split(separator: "\u{0}", maxSplits: 1).map(String.init)
            let count = counts[key] ?? 0
            return "SKIP \(count) \(parts[0]) case\(count == 1 ? "" : "s"): \(parts.count > 1 ? parts[1] : "")" as ConsoleText
        }
    }

    /// A failing case's lines: every value in them (its ID, message, expectations and observations) kept on its line.
    static func progressLine(_ result: CaseResult) -> ConsoleText {
        let location = "\(result.conformanceCase.location.file):\(result.conformanceCase.location.line)"
        var head: ConsoleText = "\(result.isKnown ? "KNOWN " : "")\(result.verdict.rawValue.uppercased()) \(result.conformanceCase.id) (\(location))"
        if let entry = result.knownBy.first { head = head + " accepted by the baseline until \(entry.expires): \(entry.reason)" }
        if result.verdict == .error || result.verdict == .skip {
            return head + ": \(result.message ?? "")"
        }
        let findings = result.findings.map { finding -> ConsoleText in "  \(finding.requirement): expected \(finding.expected); observed \(finding.observed)" }
        return .lines([head] + findings)
    }

    private static func makeOptions(_ parsed: Arguments) throws(Arguments.UsageError) -> Options {
        guard parsed.positionals.isEmpty else {
            throw Arguments.UsageError(message: "unexpected argument '\(parsed.positionals[0])'; put the handler command after '--'")
        }
        let mode: SubprocessTarget.Mode
        if let text = try parsed.value("--mode") {
            guard let value = SubprocessTarget.Mode(rawValue: text) else {
                throw Arguments.UsageError(message: "--mode is 'one-shot' or 'persistent', not '\(text)'")
            }
            mode = value
        } else {
            mode = .oneShot
        }
        let timeout = try number("--timeout", parsed, default: 10, range: 0.1...3600)
        let jobs = Int(try number("--jobs", parsed, default: Double(ProcessInfo.processInfo.activeProcessorCount), range: 1...256))
        // A fresh seed per run, so generated values (state, verifiers, request ids) cannot be looked up by a
        // "test mode" adapter; the report records it and `--seed` reproduces the run exactly.
        var seed = UInt64.random(in: 1...UInt64(Int64.max))
        if let text = try parsed.value("--seed") {
            guard let value = UInt64(text) else { throw Arguments.UsageError(message: "--seed takes a whole number, not '\(text)'") }
            seed = value
        }
        let redirectURI = try parsed.value("--redirect-uri") ?? AllowedFlipURIs.default
        guard AllowedFlipURIs.all.contains(redirectURI) else {
            throw Arguments.UsageError(message: "--redirect-uri must be one of the twelve App Flip URIs Google publishes, e.g. \(AllowedFlipURIs.default)")
        }
        if parsed.flags.contains("--certification") {
            // A certification run judges whole programs as they are: nothing waived, nothing left out.
            for option in RunOption.refused where !parsed.values(option).isEmpty {
                throw Arguments.UsageError(message: "--certification refuses \(option): a certification run judges every case, with nothing waived or left out")
            }
            if !parsed.values("--profile").isEmpty {
                throw Arguments.UsageError(message: "--certification refuses --profile: a certification judges whole programs; name them instead, "
                                           + "--certification PROGRAM (" + BuiltInSuite.programKeys.joined(separator: ", ") + "; see `list --programs`)")
            }
        }
        let profiles = try CertificationSelection.profiles(parsed)
        let samples = try parsed.value("--samples").map { text throws(Arguments.UsageError) in
            let range = ConformanceCase.sampleRange
            guard let count = Int(text), range.contains(count) else {
                throw Arguments.UsageError(message: "--samples takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return count
        }
        let shard = try parsed.value("--shard").map { text throws(Arguments.UsageError) in
            guard let shard = Shard(parsing: text) else {
                throw Arguments.UsageError(message: "--shard takes I/N with 1 ≤ I ≤ N ≤ 1000, not '\(text)'")
            }
            return shard
        }
        let verbosity = try verbosity(parsed)
        let color = try parsed.value("--color").map { text throws(Arguments.UsageError) in
            guard let choice = RunProgress.ColorChoice(rawValue: text) else {
                throw Arguments.UsageError(message: "--color takes auto, always or never, not '\(text)'")
            }
            return choice
        } ?? .auto
        // The target last: the reference server starts only once every other option is known to be good, so no
        // usage error leaves it running.
        let assembly: RunSetup
        if let targetName = try parsed.value("--target") {
            guard targetName == "reference" else {
                throw Arguments.UsageError(message: "--target takes 'reference'; for your own target give --link, --client-id and a handler command, --handler-url or --config")
            }
            assembly = try TargetArguments.reference(parsed, mode: mode, seed: seed, scope: try parsed.value("--scope") ?? "devices",
                                                    redirectURI: redirectURI)
        } else {
            assembly = try TargetArguments.partner(parsed, mode: mode, seed: seed, scope: try parsed.value("--scope"), redirectURI: redirectURI)
        }
        return Options(assembly: assembly, profiles: profiles, mode: mode, timeout: timeout, jobs: jobs,
                       cases: try parsed.value("--cases"), catalog: try parsed.value("--catalog"), filters: parsed.values("--filter"),
                       reports: try parsed.value("--reports") ?? "Reports", reproducible: parsed.flags.contains("--reproducible"),
                       fileAttributes: parsed.flags.contains("--junit-file-attributes"), includeSlow: parsed.flags.contains("--slow"),
                       samples: samples, summary: try parsed.value("--summary"), baseline: try parsed.value("--baseline"),
                       certification: CertificationSelection.names(parsed),
                       rerunFailed: try parsed.value("--rerun-failed"),
                       shard: shard, verbosity: verbosity, color: color,
                       bundle: try parsed.value("--bundle"), targetLabel: try parsed.value("--target-label") ?? assembly.targetLabel,
                       attest: try parsed.value("--attest"), runBy: try parsed.value("--operator"))
    }

    /// The IDs of the cases that failed or ended in error in the run whose reports are in `directory` (or whose
    /// results.json is given), known failures included; nil (after saying why) when there is nothing to re-run.
    private static func failedCases(in path: String, console: Console) -> Set<String>? {
        do {
            let (document, file) = try ResultsDocument.load(run: path, suite: SuiteLoading.builtIn(matching:))
            let failed = Set(document.cases.filter { $0.verdict == "fail" || $0.verdict == "error" }.map(\.id))
            guard !failed.isEmpty else {
                console.err("error: --rerun-failed: no case failed or ended in error in \(file); nothing to re-run")
                return nil
            }
            return failed
        } catch {
            console.err("error: --rerun-failed: \(error.message) (give a reports directory of an earlier run, or its results.json)")
            return nil
        }
    }

    /// Why more samples would expand `${repeat}` variables past the load-time bounds, or nil when they do not.
    private static func expansionProblem(_ cases: [ConformanceCase]) -> String? {
        if let large = cases.first(where: { $0.repeatedBytes > ConformanceCase.maximumExpansion }) {
            return "case \(large.id) would expand its ${repeat} variables to \(large.repeatedBytes) bytes (at most \(ConformanceCase.maximumExpansion))"
        }
        let total = cases.reduce(0) { $0 + $1.repeatedBytes }
        return total > ConformanceCase.maximumRunExpansion
            ? "the run would expand ${repeat} variables to \(total) bytes (at most \(ConformanceCase.maximumRunExpansion))" : nil
    }

    private static func number(_ name: String, _ parsed: Arguments, default fallback: Double,
                               range: ClosedRange<Double>) throws(Arguments.UsageError) -> Double {
        guard let text = try parsed.value(name) else { return fallback }
        guard let value = Double(text), range.contains(value) else {
            throw Arguments.UsageError(message: "\(name) takes a number from \(shown(range.lowerBound)) to \(shown(range.upperBound)), not '\(text)'")
        }
        return value
    }

    /// The evidence bundle: the reports just written, the case files and catalog this run read, and the manifest.
    private static func writeBundle(_ path: String, files: [(name: String, text: String)], suite: CaseSuite, catalog: Catalog,
                                    attestations: AttestationFile?, options: Options, run: RunResult) throws(ReportFiles.Failure) {
        guard let catalogFile = catalog.file else { throw ReportFiles.Failure(message: "the catalog's bytes are not at hand for the bundle") }
        let caseFiles = suite.sources.map { (path: suite.digestPath(of: $0.path), bytes: $0.bytes) }
        let archive: [UInt8]
        do {
            archive = try EvidenceBundle.make(reports: files, caseFiles: caseFiles, catalog: catalogFile.bytes, attestations: attestations,
                                              run: run, reproducible: options.reproducible)
        } catch {
            throw ReportFiles.Failure(message: error.message)
        }
        try ReportFiles.save(archive, to: path)
    }

    private static func verbosity(_ parsed: Arguments) throws(Arguments.UsageError) -> RunProgress.Verbosity {
        let quiet = parsed.flags.contains("--quiet") || parsed.flags.contains("-q")
        let verbose = parsed.flags.contains("--verbose") || parsed.flags.contains("-v")
        if quiet && verbose { throw Arguments.UsageError(message: "--quiet and --verbose cannot both be given") }
        return quiet ? .quiet : verbose ? .verbose : .normal
    }

    /// A bound as a person writes it: `256`, not `256.0`; `0.1` stays.
    private static func shown(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
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

/// The IDs of the cases whose progress line was printed while the run went on.
private final class PrintedCases: @unchecked Sendable {
    private let lock = NSLock()
    private var verdicts: [String: Verdict] = [:]

    /// Target errors by message, in the order first seen: each is printed once, then counted.
    private var errorCounts: [String: Int] = [:]
    private var errorOrder: [String] = []

    func record(_ result: CaseResult) { lock.withLock { verdicts[result.conformanceCase.id] = result.verdict } }

    /// True when the case is a target error whose message an earlier case already printed (it is then counted).
    func repeatsError(_ result: CaseResult) -> Bool {
        guard result.verdict == .error, !result.isKnown, let message = result.message else { return false }
        return lock.withLock {
            errorCounts[message, default: 0] += 1
            if errorCounts[message] == 1 { errorOrder.append(message) }
            return (errorCounts[message] ?? 0) > 1
        }
    }

    /// Each error message printed once that more cases repeated, with how many more.
    var repeatedErrors: [(message: String, more: Int)] {
        lock.withLock { errorOrder.compactMap { message in (errorCounts[message] ?? 0) > 1 ? (message, (errorCounts[message] ?? 0) - 1) : nil } }
    }
    /// The verdict the console showed for the case, or nil when it showed none (a pass is not printed).
    func verdict(of id: String) -> Verdict? { lock.withLock { verdicts[id] } }
}
