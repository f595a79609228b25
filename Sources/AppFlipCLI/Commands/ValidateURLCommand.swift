import AppFlipModel
import AppFlipReporting
import AppFlipSuite
import Foundation

/// `validate-url [URL...]`: judges captured authorization request URLs of a native app on what each URL alone shows
/// (NAT-* requirements), with the verdicts, exit codes and reports of a run.
enum ValidateURLCommand {
    static func main(_ arguments: [String], console: Console, input: () -> String? = { readLine(strippingNewline: true) }) -> Int32 {
        let parsed: Arguments
        do {
            parsed = try Arguments(arguments, CommandOptions.validateURL)
        } catch {
            return Command.usageError(error.message, usage: Usage.validateURL, console: console)
        }
        if parsed.hasSeparator { return Command.usageError("validate-url takes no handler command", usage: Usage.validateURL, console: console) }
        if parsed.flags.contains("-h") || parsed.flags.contains("--help") {
            console.out(.suite(Usage.validateURL))
            return 0
        }
        var inputs: [URLValidation.Input] = parsed.positionals.enumerated().map { index, url in
            URLValidation.Input(url: url, file: "<argument>", line: index + 1)
        }
        if inputs.isEmpty {
            var number = 0
            while let line = input() {
                number += 1
                let text = line.trimmingCharacters(in: .whitespaces)
                guard !text.isEmpty, !text.hasPrefix("#") else { continue }
                inputs.append(URLValidation.Input(url: text, file: "<stdin>", line: number))
            }
        }
        guard !inputs.isEmpty else {
            return Command.usageError("no URL given (as arguments, or one per line on standard input)", usage: Usage.validateURL, console: console)
        }
        let reports = try? parsed.value("--reports")
        if let reports, let problem = ReportFiles.problem(writing: reports) {
            console.err("error: --reports \(reports): \(problem)")
            return ExitStatus.usage.rawValue
        }
        guard let catalog = SuiteLoading.loadCatalog(try? parsed.value("--catalog"), console: console) else { return ExitStatus.usage.rawValue }
        let audit = AuthorizationRequestAudit(registeredRedirectURIs: parsed.values("--redirect-uri"))
        // The command as a reviewer would retype it, with any secret a URL carries withheld.
        let shown = arguments.map { $0.contains("?") ? Redaction.redact(url: $0) : $0 }
        let run = URLValidation.run(inputs, audit: audit, catalog: catalog, suiteVersion: SuiteVersion.current,
                                    startedAt: ISO8601DateFormatter().string(from: Date()),
                                    command: RunCommand.commandLine(shown, subcommand: "validate-url"))
        for result in run.results {
            console.out("\(result.verdict.rawValue.uppercased()) \(result.conformanceCase.location.file):\(result.conformanceCase.location.line) \(result.evidence.link)")
            for check in result.checks where check.isApplicable && check.verdict != .pass {
                console.out("  \(check.requirement): expected \(check.expected); observed \(check.observed)")
            }
        }
        let counts = Verdict.allCases.map { "\(run.count($0)) \($0.rawValue)" }.joined(separator: ", ")
        let word = run.exitStatus == .conformant ? "conformant" : run.exitStatus == .nonConformant ? "NOT conformant" : "inconclusive"
        console.out("\(run.results.count) URL\(run.results.count == 1 ? "" : "s"): \(counts) — \(word) (exit \(run.exitStatus.rawValue))")
        if let reports {
            let reproducible = parsed.flags.contains("--reproducible")
            do {
                try ReportFiles.save(ReportSet(run: run, profiles: [Profile.nativeClient.rawValue], reproducible: reproducible).files,
                                     into: reports)
            } catch {
                console.err("error: the reports were not written (the old ones, if any, are untouched): \(error.message)")
                return ExitStatus.reportsNotWritten.rawValue
            }
            console.out("reports: \(ReportSet.names.map { "\(reports)/\($0)" }.joined(separator: ", "))")
        }
        return run.exitStatus.rawValue
    }
}
