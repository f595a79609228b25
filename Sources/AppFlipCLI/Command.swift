import AppFlipBase
import AppFlipHTTP
import AppFlipModel
import AppFlipRedaction
import AppFlipReference
import AppFlipReporting
import AppFlipSuite
import AppFlipSystem
import Foundation

/// The `appflip-conformance` command: parses the arguments, runs a subcommand, returns the exit code.
package enum Command {
    /// Makes this process the owner of every process its handlers start, however they leave (Linux: a child
    /// subreaper, so orphaned daemons come back to it and are ended with the run). For the command-line tool's
    /// process only: every child it has that is not a handler is then taken for an orphan.
    package static func containDescendants() {
        ProcessSweep.becomeSubreaper()
    }

    /// The placeholder style of a command: `--reproducible` (before any handler command) writes placeholders without
    /// fingerprints, so that two runs write the same ones (`‹redacted›`). A fingerprint keyed for the run would differ
    /// between runs, and one keyed by the seed could be used to confirm a guessed secret by anyone holding the reports.
    package static func placeholderStyle(for arguments: [String]) -> Redaction.PlaceholderStyle {
        arguments.prefix(while: { $0 != "--" }).contains("--reproducible") ? .plain : .fingerprinted
    }

    /// Runs the command the arguments name, redaction's placeholders in its style (`placeholderStyle`) for this call
    /// only, and returns its exit code.
    package static func main(_ arguments: [String], console: Console = .standard) -> Int32 {
        Redaction.$style.withValue(placeholderStyle(for: arguments)) { dispatch(arguments, console: console) }
    }

    private static func dispatch(_ arguments: [String], console: Console) -> Int32 {
        // Output piped into `head` must not kill the run before its reports are written: a closed pipe is an
        // ignored write error (Console), never SIGPIPE.
        Platform.ignoreSIGPIPE()
        // Traffic goes to the configured target only: never through a proxy the environment names.
        HTTPClient.ignoreEnvironmentProxies()
        guard let name = arguments.first else {
            console.err(.suite(Usage.main))
            return ExitStatus.usage.rawValue
        }
        let rest = Array(arguments.dropFirst())
        // `run --version` (or -V) before the handler command's own arguments: the suite's version, like the bare flag.
        let own = rest.prefix { $0 != "--" }
        if Usage.topicNames.contains(name), own.contains("--version") || own.contains("-V") {
            console.out("\(SuiteVersion.line)")
            return 0
        }
        if let command = commands[name] { return command(rest, console) }
        switch name {
        case "help", "-h", "--help":
            return help(rest.first, console: console)
        case "--version", "version", "-V":
            console.out("\(SuiteVersion.line)")
            return 0
        default:
            let hint = Suggestion.closest(to: name, among: Array(Usage.topics.keys)).map { " (did you mean '\($0)'?)" } ?? ""
            console.err("error: unknown command '\(name)'\(hint)\nSee 'appflip-conformance help'.")
            return ExitStatus.usage.rawValue
        }
    }

    /// Every subcommand by name. The `reference-*` ones are internal: the built-in reference handler, Android activity
    /// and native client behind their adapter contracts (`--target reference`).
    private static let commands: [String: @Sendable ([String], Console) -> Int32] = [
        "run": { RunCommand.main($0, console: $1) }, "lint": { LintCommand.main($0, console: $1) },
        "list": { ListCommand.main($0, console: $1) }, "validate-url": { ValidateURLCommand.main($0, console: $1) },
        "diff": { DiffCommand.main($0, console: $1) }, "merge": { MergeCommand.main($0, console: $1) },
        "verify": { VerifyCommand.main($0, console: $1) }, "certify": { CertifyCommand.main($0, console: $1) },
        "detection": { DetectionCommand.main($0, console: $1) },
        "reference-native-client": { ReferenceHandlerCommand.nativeClient($0, console: $1) },
        "reference-handler": { ReferenceHandlerCommand.main($0, console: $1) },
        "reference-android-handler": { ReferenceHandlerCommand.android($0, console: $1) },
    ]

    /// `help [TOPIC]`: the overview, or one command's help.
    private static func help(_ topic: String?, console: Console) -> Int32 {
        guard let topic else {
            console.out(.suite(Usage.main))
            return 0
        }
        guard let text = Usage.topics[topic] else {
            let hint = Suggestion.closest(to: topic, among: Array(Usage.topics.keys)).map { " (did you mean '\($0)'?)" } ?? ""
            console.err("error: no help for '\(topic)'\(hint)\nSee 'appflip-conformance help'.")
            return ExitStatus.usage.rawValue
        }
        console.out(.suite(text))
        return 0
    }

    /// Prints a usage error with the command's help; returns exit code 2.
    /// The error, the command's first usage line and where the whole help is (swift-argument-parser's style):
    /// a mistake is seen at once, not under a page of help.
    /// The error, the usage form of what was `typed` (the handler form for a handler command, the native form for a
    /// native client; the first form otherwise), and where the help is.
    /// A command's options read by `parse` (nil for `--help`), or the exit status once its help (0) or a usage error (2)
    /// is printed: how every command with an `Options` struct starts.
    static func options<Options>(
        _ arguments: [String], usage: String, console: Console, _ parse: ([String]) throws(Arguments.UsageError) -> Options?
    ) -> Result<Options, CommandExit> {
        do {
            guard let options = try parse(arguments) else {
                console.out(.suite(usage))
                return .failure(CommandExit(status: 0))
            }
            return .success(options)
        } catch {
            return .failure(CommandExit(status: usageError(error.message, usage: usage, console: console)))
        }
    }

    /// The exit status of a command that stops before its work (its help, a usage error).
    struct CommandExit: Error {
        var status: Int32
    }

    static func usageError(_ message: String, details: [String] = [], usage: String, console: Console, typed: [String] = []) -> Int32 {
        let line = "usage: " + usageForm(usage, typed: typed)
        let command = line.split(separator: " ").dropFirst(2).first.map(String.init) ?? ""
        console.err(.lines(["error: \(message)"] + details.map { "\($0)" } + ["\(line)", "See 'appflip-conformance help \(command)'."]))
        return ExitStatus.usage.rawValue
    }

    /// Of a help text's usage forms (`usage: appflip-conformance …` and the lines under it), the one naming most of the
    /// options `typed` has (a handler command after `--` counts as `-- HANDLER`); the first on a tie.
    static func usageForm(_ usage: String, typed: [String]) -> String {
        var forms: [String] = []
        for line in usage.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("usage: ") {
                forms.append(String(text.dropFirst("usage: ".count)))
            } else if !forms.isEmpty, text.hasPrefix("appflip-conformance ") {
                forms.append(text)
            } else if !forms.isEmpty {
                break
            }
        }
        let options = Array(typed.prefix { $0 != "--" })
        let given = Set(options.filter { $0.hasPrefix("--") }.map { String($0.split(separator: "=").first ?? "") })
        let hasCommand = typed.contains("--")
        // The values typed for each option: a form's literal value (`--profile native-client`) counts only when typed.
        var values: [String: Set<String>] = [:]
        for (index, word) in options.enumerated() where word.hasPrefix("--") {
            if let equals = word.firstIndex(of: "=") {
                values[String(word[..<equals]), default: []].insert(String(word[word.index(after: equals)...]))
            } else if index + 1 < options.count {
                values[word, default: []].insert(options[index + 1])
            }
        }
        func score(_ form: String) -> Int {
            let words = form.split(separator: " ").map(String.init)
            var score = 0
            for (index, word) in words.enumerated() where word.hasPrefix("--") && word != "--" && given.contains(word) {
                let value = index + 1 < words.count ? words[index + 1] : ""
                let literal = !value.isEmpty && value.first?.isLowercase == true
                score += literal && values[word]?.contains(value) != true ? 0 : 1
            }
            if words.contains("--") { score += hasCommand ? 2 : -2 }
            return score
        }
        guard let best = forms.indices.max(by: { score(forms[$0]) < score(forms[$1]) || (score(forms[$0]) == score(forms[$1]) && $0 > $1) }) else {
            return forms.first ?? ""
        }
        return forms[best]
    }
}
