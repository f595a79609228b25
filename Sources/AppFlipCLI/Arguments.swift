import AppFlipBase
import AppFlipModel

/// A small argument reader: `--name value`, `--flag`, positionals, and everything after `--`.
struct Arguments {
    struct UsageError: Error, CustomStringConvertible {
        var message: String
        /// Lines printed under the message, each on its own (a configuration file's diagnostics).
        var details: [String] = []
        var description: String { ([message] + details).joined(separator: "\n") }
    }

    /// Values and flags by the spelling given; read only through a `CommandOption` (`value(.mode)`, `has(.quiet)`).
    private var options: [String: [String]] = [:]
    private var flags: Set<String> = []
    private(set) var positionals: [String] = []
    private(set) var command: [String] = []
    private(set) var hasSeparator = false

    /// Parses `arguments` knowing which options take a value and which are flags; anything else is an error, and so
    /// is a value option given twice unless it is `repeatable` (nil: every one is).
    /// `optionalValue` options are flags that may carry values: `--name=VALUE`, or `--name VALUE` when the next
    /// argument is no option (a positional is an error otherwise, so nothing is taken from it); each is repeatable.
    init(
        _ arguments: [String], valueOptions: Set<String>, flagOptions: Set<String>, repeatable: Set<String>? = nil,
        optionalValue: Set<String> = []
    ) throws(UsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                hasSeparator = true
                command = Array(arguments[(index + 1)...])
                return
            }
            if argument.hasPrefix("-"), argument.count > 1 {
                var name = argument
                var inlineValue: String?
                if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                    name = String(argument[..<equals])
                    inlineValue = String(argument[argument.index(after: equals)...])
                }
                if valueOptions.contains(name) {
                    guard let value = inlineValue ?? (index + 1 < arguments.count ? arguments[index + 1] : nil) else {
                        throw UsageError(message: "\(name) needs a value")
                    }
                    if let repeatable, !repeatable.contains(name), let first = options[name]?.first {
                        throw UsageError(message: "\(name) is given twice ('\(first)' and '\(value)'); it takes one value")
                    }
                    options[name, default: []].append(value)
                    index += inlineValue == nil ? 2 : 1
                    continue
                }
                if optionalValue.contains(name) {
                    flags.insert(name)
                    if let inlineValue {
                        options[name, default: []].append(inlineValue)
                        index += 1
                    } else if index + 1 < arguments.count, !arguments[index + 1].hasPrefix("-") {
                        options[name, default: []].append(arguments[index + 1])
                        index += 2
                    } else {
                        index += 1
                    }
                    continue
                }
                if flagOptions.contains(name), inlineValue == nil {
                    flags.insert(name)
                    index += 1
                    continue
                }
                let known = Array(valueOptions) + Array(flagOptions) + Array(optionalValue)
                let hint = Suggestion.closest(to: name, among: known.sorted()).map { " (did you mean '\($0)'?)" } ?? ""
                throw UsageError(message: "unknown option '\(name)'\(hint)")
            }
            positionals.append(argument)
            index += 1
        }
    }

    /// The one value given to `option`, or nil when it was not given.
    func value(_ option: CommandOption) throws(UsageError) -> String? {
        let given = values(option)
        guard given.count <= 1 else { throw UsageError(message: "\(option.name) is given \(given.count) times") }
        return given.first
    }

    /// Every value given to `option`, under any of its spellings, in order.
    func values(_ option: CommandOption) -> [String] { option.names.flatMap { options[$0] ?? [] } }

    /// The words that give `options` as they were given here (each value as `--name value`, each flag as its long
    /// name), then `--` and the command after it when there was one: a command line of another command that takes
    /// these options (`verify --rerun` hands its target options to `run`).
    func words(_ options: [CommandOption]) -> [String] {
        var words: [String] = []
        for option in options {
            if option.value == nil {
                if has(option) { words.append(option.name) }
            } else if option.optionalValue {
                if has(option) { words += values(option).isEmpty ? [option.name] : values(option).map { option.name + "=" + $0 } }
            } else {
                for value in values(option) { words += [option.name, value] }
            }
        }
        return hasSeparator ? words + ["--"] + command : words
    }

    /// Whether the flag `option` was given, under any of its spellings (`-q` or `--quiet`).
    func has(_ option: CommandOption) -> Bool { option.names.contains(where: flags.contains) }
}
