import AppFlipModel
import AppFlipReference
import AppFlipReporting
import AppFlipRunner
import Foundation

/// `run`: runs the cases against a link handler, writes `junit.xml` and `report.md`, exits with the verdict.
enum RunCommand {
    struct Options {
        var target: any LinkHandlerTarget
        var configuration: RunConfiguration
        var mode: SubprocessTarget.Mode
        var timeout: Double
        var jobs: Int
        var cases: String?
        var catalog: String?
        var filters: [String]
        var reports: String
        var reproducible: Bool
        var fileAttributes: Bool
    }

    static func main(_ arguments: [String], console: Console) -> Int32 {
        let options: Options
        do {
            let parsed = try Arguments(
                arguments,
                valueOptions: ["--target", "--handler-url", "--link", "--client-id", "--scope", "--redirect-uri", "--mode", "--timeout",
                               "--cases", "--catalog", "--filter", "--jobs", "--seed", "--reports"],
                flagOptions: ["--reproducible", "--junit-file-attributes", "-h", "--help"])
            if parsed.flags.contains("-h") || parsed.flags.contains("--help") {
                console.out(Usage.run)
                return 0
            }
            options = try makeOptions(parsed)
        } catch {
            return Command.usageError(error.message, usage: Usage.run, console: console)
        }
        guard let (catalog, suite) = SuiteLoading.load(cases: options.cases, catalog: options.catalog, console: console) else {
            return ExitStatus.usage.rawValue
        }
        let filter = CaseFilter(patterns: options.filters)
        let selected = suite.cases.filter(filter.matches)
        guard !selected.isEmpty else {
            console.err("error: no case matches --filter \(options.filters.joined(separator: " --filter "))")
            return ExitStatus.usage.rawValue
        }
        return execute(selected, suite: suite, catalog: catalog, options: options, arguments: arguments, console: console)
    }

    private static func execute(_ cases: [ConformanceCase], suite: CaseSuite, catalog: Catalog, options: Options,
                                arguments: [String], console: Console) -> Int32 {
        let runner = Runner(configuration: options.configuration, timeout: options.timeout, jobs: options.jobs)
        let startedAt = ISO8601DateFormatter().string(from: Date())
        let clock = Date()
        console.err("running \(cases.count) cases against \(options.target.description) with \(options.jobs) jobs")
        let results = runner.run(cases, on: options.target, progress: { result in
            guard result.verdict != .pass else { return }
            console.err(progressLine(result))
        })
        let provenance = Provenance(
            suiteVersion: SuiteVersion.current, caseDigest: suite.digest, caseFileCount: suite.files.count,
            seed: options.configuration.seed, target: options.target.description, mode: options.mode.rawValue, jobs: options.jobs,
            filter: options.filters.isEmpty ? nil : options.filters.joined(separator: " "), startedAt: startedAt,
            duration: Date().timeIntervalSince(clock), command: commandLine(arguments))
        let run = RunResult(results: results, catalog: catalog, provenance: provenance, incomplete: results.count < cases.count)
        let junitPath = options.reports + "/junit.xml"
        let markdownPath = options.reports + "/report.md"
        let writing = Date()
        do {
            try AtomicFile.write(JUnitReport(run: run, reproducible: options.reproducible, fileAttributes: options.fileAttributes).render(),
                                 to: junitPath)
            try AtomicFile.write(MarkdownReport(run: run, profiles: Array(Set(cases.map(\.profile.rawValue))).sorted(),
                                                reproducible: options.reproducible).render(),
                                 to: markdownPath)
        } catch {
            console.err("error: cannot write reports to \(options.reports): \(error.localizedDescription)")
            return ExitStatus.usage.rawValue
        }
        let counts = Verdict.allCases.map { "\(run.count($0)) \($0.rawValue)" }.joined(separator: ", ")
        let word: String
        switch run.exitStatus {
        case .conformant: word = "conformant"
        case .nonConformant: word = "NOT conformant"
        case .inconclusive: word = "inconclusive"
        case .usage: word = "invalid"
        }
        console.out("\(results.count) cases: \(counts) — \(word) (exit \(run.exitStatus.rawValue))")
        let writeMilliseconds = Date().timeIntervalSince(writing) * 1000
        console.out("reports: \(junitPath), \(markdownPath) (written in \(String(format: "%.1f", writeMilliseconds)) ms; "
                    + "cases ran in \(String(format: "%.2f", provenance.duration)) s)")
        return run.exitStatus.rawValue
    }

    private static func progressLine(_ result: CaseResult) -> String {
        let location = "\(result.conformanceCase.location.file):\(result.conformanceCase.location.line)"
        let head = "\(result.verdict.rawValue.uppercased()) \(result.conformanceCase.id) (\(location))"
        if result.verdict == .error || result.verdict == .skip {
            return head + ": " + (result.message ?? "")
        }
        let findings = result.findings.map { "  \($0.requirement): expected \($0.expected); observed \($0.observed)" }
        return ([head] + findings).joined(separator: "\n")
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
        var seed: UInt64 = 1
        if let text = try parsed.value("--seed") {
            guard let value = UInt64(text) else { throw Arguments.UsageError(message: "--seed takes a whole number, not '\(text)'") }
            seed = value
        }
        let redirectURI = try parsed.value("--redirect-uri") ?? AllowedFlipURIs.default
        guard AllowedFlipURIs.all.contains(redirectURI) else {
            throw Arguments.UsageError(message: "--redirect-uri must be one of the twelve App Flip URIs Google publishes, e.g. \(AllowedFlipURIs.default)")
        }
        let scope = try parsed.value("--scope") ?? "devices"

        let target: any LinkHandlerTarget
        let configuration: RunConfiguration
        if let url = try parsed.value("--handler-url") {
            guard try parsed.value("--target") == nil, !parsed.hasSeparator else {
                throw Arguments.UsageError(message: "--handler-url cannot be combined with --target or a handler command after '--'")
            }
            guard let http = HTTPLinkHandlerTarget(url: url) else {
                throw Arguments.UsageError(message: "--handler-url must be an absolute http:// URL without userinfo, e.g. http://127.0.0.1:8080/link-handler")
            }
            guard http.origin.scheme == "http" else {
                throw Arguments.UsageError(message: "--handler-url: \(http.origin.scheme):// is not supported by this version; use http:// (see README, \"HTTP targets\")")
            }
            let (link, clientID) = try linkAndClient(parsed)
            target = http
            configuration = RunConfiguration(link: link, clientID: clientID, scope: scope, redirectURI: redirectURI, seed: seed)
        } else if let targetName = try parsed.value("--target") {
            guard targetName == "reference" else {
                throw Arguments.UsageError(message: "--target takes 'reference'; for your own handler give --link, --client-id and the command after '--'")
            }
            guard !parsed.hasSeparator else {
                throw Arguments.UsageError(message: "--target reference and a handler command after '--' cannot be combined")
            }
            let clientID = try parsed.value("--client-id") ?? ReferenceArguments.defaultClientID
            guard let executable = Bundle.main.executablePath else {
                throw Arguments.UsageError(message: "cannot locate this executable to start the reference handler")
            }
            target = SubprocessTarget(executable: executable, arguments: ["reference-handler", "--client-id", clientID], mode: mode,
                                      label: "appflip-conformance reference-handler --client-id \(clientID)")
            configuration = RunConfiguration(link: try parsed.value("--link") ?? "https://app.example/flip", clientID: clientID,
                                             scope: scope, redirectURI: redirectURI, seed: seed)
        } else {
            guard parsed.hasSeparator, let program = parsed.command.first else {
                throw Arguments.UsageError(message: "give --target reference, --handler-url URL, or the handler command after '--'")
            }
            let (link, clientID) = try linkAndClient(parsed)
            guard let executable = SubprocessTarget.resolve(program) else {
                throw Arguments.UsageError(message: "cannot find the handler executable '\(program)' (not found, not a file, or not executable)")
            }
            target = SubprocessTarget(executable: executable, arguments: Array(parsed.command.dropFirst()), mode: mode,
                                      label: parsed.command.joined(separator: " "))
            configuration = RunConfiguration(link: link, clientID: clientID, scope: scope, redirectURI: redirectURI, seed: seed)
        }
        return Options(target: target, configuration: configuration, mode: mode, timeout: timeout, jobs: jobs,
                       cases: try parsed.value("--cases"), catalog: try parsed.value("--catalog"), filters: parsed.values("--filter"),
                       reports: try parsed.value("--reports") ?? "Reports", reproducible: parsed.flags.contains("--reproducible"),
                       fileAttributes: parsed.flags.contains("--junit-file-attributes"))
    }

    /// `--link` and `--client-id`, required for a partner's handler.
    private static func linkAndClient(_ parsed: Arguments) throws(Arguments.UsageError) -> (String, String) {
        guard let link = try parsed.value("--link") else { throw Arguments.UsageError(message: "--link URL is required for your handler") }
        guard let clientID = try parsed.value("--client-id") else {
            throw Arguments.UsageError(message: "--client-id ID is required for your handler")
        }
        guard link.hasPrefix("https://"), link.count > 8, !link.contains("?"), !link.contains("#") else {
            throw Arguments.UsageError(message: "--link must be the https universal link without a query or fragment, e.g. https://app.example/flip")
        }
        return (link, clientID)
    }

    private static func number(_ name: String, _ parsed: Arguments, default fallback: Double,
                               range: ClosedRange<Double>) throws(Arguments.UsageError) -> Double {
        guard let text = try parsed.value(name) else { return fallback }
        guard let value = Double(text), range.contains(value) else {
            throw Arguments.UsageError(message: "\(name) takes a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    /// The command line as a reviewer would retype it, each argument shell-quoted when needed.
    static func commandLine(_ arguments: [String]) -> String {
        (["appflip-conformance", "run"] + arguments).map { argument in
            let safe = !argument.isEmpty && argument.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./:=@,+%".contains($0)) }
            return safe ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }
}
