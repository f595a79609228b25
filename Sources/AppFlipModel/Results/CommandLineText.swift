import Foundation

/// Command lines as a reviewer retypes them: each argument shell-quoted only when it needs it, and a run's command
/// narrowed to a single case for the "reproduce just this case" line of each failure.
package enum CommandLineText {
    /// `appflip-conformance SUBCOMMAND ARGUMENTS…`, each argument single-quoted when it has anything but
    /// letters, digits and `-_./:=@,+%`.
    /// `program` is how the tool was started, ready to type (`appflip-conformance`, `swift run -c release
    /// appflip-conformance`, or the executable's quoted path).
    package static func quoted(_ arguments: [String], subcommand: String, program: String = defaultProgram) -> String {
        ([program] + ([subcommand] + arguments).map(quote)).joined(separator: " ")
    }

    /// The program a command names when nothing better is known (a bundle re-run on a reviewer's machine).
    package static let defaultProgram = "appflip-conformance"

    /// One argument as a shell reads it back: as is when it is plain, else single-quoted.
    package static func quote(_ argument: String) -> String {
        let safe = !argument.isEmpty && argument.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./:=@,+%".contains($0)) }
        return safe ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The program a recorded `command` starts with (what comes before ` SUBCOMMAND `).
    package static func program(of command: String, subcommand: String = "run") -> String {
        // `swift run …` holds a ` run ` of its own: the subcommand is the first one not right after `swift`.
        var from = command.startIndex
        while let found = command.range(of: " " + subcommand + " ", range: from..<command.endIndex)
            ?? command.range(of: " " + subcommand, options: .anchored.union(.backwards))
        {
            let program = String(command[..<found.lowerBound])
            if !program.hasSuffix("swift") { return program }
            from = found.upperBound
            if from >= command.endIndex { break }
        }
        return defaultProgram
    }

    /// How this process was started, as a command to type: `swift run …` when it is a package's build product (the
    /// way the README's first lines run it), the bare name when PATH finds this very executable, else its absolute path.
    package static func invokedProgram(
        argument0: String = CommandLine.arguments.first ?? defaultProgram,
        currentDirectory: String = FileManager.default.currentDirectoryPath,
        path: String? = ProcessInfo.processInfo.environment["PATH"]
    ) -> String {
        let name = (argument0 as NSString).lastPathComponent
        let absolute =
            argument0.contains("/")
            ? URL(fileURLWithPath: argument0.hasPrefix("/") ? argument0 : currentDirectory + "/" + argument0).standardizedFileURL.path
            : ((path ?? "").split(separator: ":").map { String($0) + "/" + argument0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
                ?? argument0)
        let components = absolute.split(separator: "/")
        if let build = components.lastIndex(of: ".build"), build + 2 < components.count {
            let configuration = components[components.count - 2]
            let root = "/" + components[..<build].joined(separator: "/")
            let here = URL(fileURLWithPath: currentDirectory).standardizedFileURL.path
            let prefix = root == here ? "" : "swift run --package-path " + quote(root) + " "
            return (prefix.isEmpty ? "swift run " : prefix) + (configuration == "release" ? "-c release " : "") + name
        }
        let found = (path ?? "").split(separator: ":").map { String($0) + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
        if let found, URL(fileURLWithPath: found).resolvingSymlinksInPath().path == URL(fileURLWithPath: absolute).resolvingSymlinksInPath().path {
            return name
        }
        return quote(absolute)
    }

    /// Options that choose which cases run, or where the reports go; a one-case command drops them all and says
    /// `--filter ID`, writing to `Reports/one-case` so the whole run's reports are not replaced.
    static let selecting: Set<String> = ["--filter", "--rerun-failed", "--shard", "--reports", "--summary", "--bundle", "--baseline"]

    /// Flags a one-case command drops: a certification run refuses `--filter`, and one case certifies nothing, so the
    /// command that reproduces a case of a certification run is an ordinary run (it always runs).
    static let selectingFlags: Set<String> = ["--certification"]

    /// The run's arguments with every case-selecting option replaced by `--filter ID` (before any `--`).
    package static func narrowed(_ arguments: [String], toCase id: String) -> [String] {
        var result = selecting.sorted().reduce(arguments) { removing($1, from: $0) }
        result = selectingFlags.sorted().reduce(result) { removingOptionalValue($1, from: $0) }
        result.insert(contentsOf: ["--filter", id, "--reports", "Reports/one-case"], at: result.firstIndex(of: "--") ?? result.endIndex)
        return result
    }

    /// The arguments without a flag that may carry values (`--certification`), in each spelling the parser takes:
    /// alone, `--flag=VALUE`, and `--flag VALUE` when the next argument is no option (before any `--`).
    package static func removingOptionalValue(_ flag: String, from arguments: [String]) -> [String] {
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        var result: [String] = []
        var index = 0
        while index < end {
            let argument = arguments[index]
            if argument == flag {
                index += index + 1 < end && !arguments[index + 1].hasPrefix("-") ? 2 : 1
                continue
            }
            if !argument.hasPrefix(flag + "=") { result.append(argument) }
            index += 1
        }
        return result + arguments[end...]
    }

    /// Whether the arguments ask for a certification (`--certification` in any spelling, before any `--`).
    package static func certifies(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains { $0 == "--certification" || $0.hasPrefix("--certification=") }
    }

    /// The arguments without `option` and its value (before any `--`).
    package static func removing(_ option: String, from arguments: [String]) -> [String] {
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        var result: [String] = []
        var index = 0
        while index < end {
            if arguments[index] == option {
                index += 2
                continue
            }
            if !arguments[index].hasPrefix(option + "=") { result.append(arguments[index]) }
            index += 1
        }
        return result + arguments[end...]
    }
}
