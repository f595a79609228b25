import AppFlipBase
import AppFlipModel
import AppFlipRedaction
import AppFlipReporting
import AppFlipSuite
import Foundation

/// `validate-url [URL...]`: judges captured authorization request URLs of a native app on what each URL alone shows
/// (NAT-* requirements), with the verdicts, exit codes and reports of a run.
enum ValidateURLCommand {
    /// The longest URL judged: longer ones (cut there when read) are an error that says so.
    static let maximumURLBytes = 64 * 1024
    /// How many URLs a run judges unless `--max-urls` says otherwise.
    static let defaultMaximumURLs = 1_000

    /// What `validate-url` was given: the URLs (from the arguments or standard input), where the reports go, the
    /// catalog, the registered redirect URIs.
    struct Options {
        var inputs: [URLValidation.Input]
        var reports: String?
        var catalog: String?
        var registeredRedirectURIs: [String]
        var reproducible: Bool

        /// Nil for `--help`.
        init?(_ arguments: [String]) throws(Arguments.UsageError) {
            let parsed = try Arguments(arguments, CommandOptions.validateURL)
            if parsed.hasSeparator { throw Arguments.UsageError(message: "validate-url takes no handler command") }
            if parsed.has(.help) { return nil }
            var maximum = ValidateURLCommand.defaultMaximumURLs
            if let text = try? parsed.value(.maxURLs) {
                guard let number = Int(text), number > 0 else {
                    throw Arguments.UsageError(message: "--max-urls takes a whole number above 0, not '\(text)'")
                }
                maximum = number
            }
            switch ValidateURLCommand.readInputs(parsed, maximum: maximum) {
            case .success(let read): inputs = read
            case .failure(let problem): throw Arguments.UsageError(message: problem.message)
            }
            reports = try? parsed.value(.reports)
            catalog = try? parsed.value(.catalog)
            registeredRedirectURIs = parsed.values(.registeredRedirectURI)
            reproducible = parsed.has(.reproducible)
        }
    }

    static func main(_ arguments: [String], console: Console) -> Int32 {
        let options: Options
        switch Command.options(arguments, usage: Usage.validateURL, console: console, Options.init) {
        case .success(let given): options = given
        case .failure(let exit): return exit.status
        }
        if let reports = options.reports, let problem = ReportFiles.problem(writing: reports) {
            console.err("error: --reports \(reports): \(problem)")
            return ExitStatus.usage.rawValue
        }
        guard let catalog = SuiteLoading.loadCatalog(options.catalog, console: console) else { return ExitStatus.usage.rawValue }
        // The command as a reviewer would retype it, with any secret a URL carries withheld.
        let shown = arguments.map { $0.contains("?") ? Redaction.redact(url: $0) : $0 }
        let run = URLValidation.run(
            options.inputs, audit: AuthorizationRequestAudit(registeredRedirectURIs: options.registeredRedirectURIs), catalog: catalog,
            suiteVersion: SuiteVersion.current, startedAt: UTCTimestamp.seconds(Date()),
            command: RunCommand.commandLine(shown, subcommand: "validate-url"))
        printFindings(run, console: console)
        let counts = Verdict.allCases.map { "\(run.count($0)) \($0.rawValue)" }.joined(separator: ", ")
        let word = run.exitStatus == .conformant ? "conformant" : run.exitStatus == .nonConformant ? "NOT conformant" : "inconclusive"
        console.out("\(run.results.count) URL\(run.results.count == 1 ? "" : "s"): \(counts) — \(word) (exit \(run.exitStatus.rawValue))")
        if let reports = options.reports { return write(run, into: reports, reproducible: options.reproducible, console: console) }
        return run.exitStatus.rawValue
    }

    /// The reports, replayed into the recorder a run writes them with; the exit status.
    private static func write(_ run: RunResult, into reports: String, reproducible: Bool, console: Console) -> Int32 {
        let recorder = ReportsRecorder(directory: reports, profiles: [Profile.nativeClient.rawValue], reproducible: reproducible)
        if let problem = RunRecording([recorder], reports: reports).end(run).problem {
            console.err("error: the reports were not written (the old ones, if any, are untouched): \(problem)")
            return ExitStatus.reportsNotWritten.rawValue
        }
        console.out("reports: \(ReportSet.names.map { "\(reports)/\($0)" }.joined(separator: ", "))")
        return run.exitStatus.rawValue
    }

    fileprivate struct Problem: Error {
        var message: String
    }

    /// The URLs to judge: the arguments, or else one a line of standard input (read to bounds: no line costs more
    /// than the longest URL judged, no run more than the URLs it may judge).
    fileprivate static func readInputs(_ parsed: Arguments, maximum: Int) -> Result<[URLValidation.Input], Problem> {
        let tooMany = Problem(message: "more than \(maximum) URLs; judge them in several runs, or raise the limit with --max-urls N")
        guard parsed.positionals.count <= maximum else { return .failure(tooMany) }
        var inputs: [URLValidation.Input] = parsed.positionals.enumerated().map { index, url in
            var input = URLValidation.Input(url: String(url.utf8.prefix(maximumURLBytes)) ?? url, file: "<argument>", line: index + 1)
            input.tooLong = url.utf8.count > maximumURLBytes ? maximumURLBytes : nil
            return input
        }
        if inputs.isEmpty {
            var lines = BoundedLines(limit: maximumURLBytes + 1)
            var number = 0
            while let line = lines.next() {
                number += 1
                let text = line.text.trimmingCharacters(in: .whitespaces)
                guard !text.isEmpty, !text.hasPrefix("#") else { continue }
                guard inputs.count < maximum else { return .failure(tooMany) }
                var input = URLValidation.Input(url: String(text.utf8.prefix(maximumURLBytes)) ?? text, file: "<stdin>", line: number)
                input.tooLong = line.cut || text.utf8.count > maximumURLBytes ? maximumURLBytes : nil
                inputs.append(input)
            }
        }
        guard !inputs.isEmpty else { return .failure(Problem(message: "no URL given (as arguments, or one per line on standard input)")) }
        return .success(inputs)
    }

    /// A line per URL with its verdict; each distinct finding printed once, and a URL whose findings were all seen
    /// before says where.
    private static func printFindings(_ run: RunResult, console: Console) {
        var seen: [String: String] = [:]
        for result in run.results {
            let location = "\(result.conformanceCase.location.file):\(result.conformanceCase.location.line)"
            let link = String(result.evidence.link.prefix(300)) + (result.evidence.link.count > 300 ? "…" : "")
            if let message = result.message {
                console.out("\(result.verdict.rawValue.uppercased()) \(location) (\(message)) \(link)")
            } else {
                console.out("\(result.verdict.rawValue.uppercased()) \(location) \(link)")
            }
            var earlier: [String] = []
            for check in result.checks where check.isApplicable && check.verdict != .pass {
                let key = "\(check.requirement)\u{0}\(check.expected)\u{0}\(check.observed)"
                if let first = seen[key] {
                    earlier.append(first)
                    continue
                }
                seen[key] = location
                console.out("  \(check.requirement): expected \(check.expected); observed \(check.observed)")
            }
            if let first = earlier.first { console.out("  (\(earlier.count) finding\(earlier.count == 1 ? "" : "s") as at \(first))") }
        }
    }
}
