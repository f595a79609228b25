/// Command lines as a reviewer retypes them: each argument shell-quoted only when it needs it, and a run's command
/// narrowed to a single case for the "reproduce just this case" line of each failure.
package enum CommandLineText {
    /// `appflip-conformance SUBCOMMAND ARGUMENTS…`, each argument single-quoted when it has anything but
    /// letters, digits and `-_./:=@,+%`.
    package static func quoted(_ arguments: [String], subcommand: String) -> String {
        (["appflip-conformance", subcommand] + arguments).map { argument in
            let safe = !argument.isEmpty && argument.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./:=@,+%".contains($0)) }
            return safe ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }

    /// Options that choose which cases run, or where the reports go; a one-case command drops them all and says
    /// `--filter ID`, writing to `Reports/one-case` so the whole run's reports are not replaced.
    static let selecting: Set<String> = ["--filter", "--rerun-failed", "--shard", "--reports", "--summary", "--bundle", "--baseline"]

    /// The run's arguments with every case-selecting option replaced by `--filter ID` (before any `--`).
    package static func narrowed(_ arguments: [String], toCase id: String) -> [String] {
        var result = selecting.sorted().reduce(arguments) { removing($1, from: $0) }
        result.insert(contentsOf: ["--filter", id, "--reports", "Reports/one-case"], at: result.firstIndex(of: "--") ?? result.endIndex)
        return result
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
