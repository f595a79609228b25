/// The options each command takes, in one table: the commands parse with it, and `Command.check` uses it to tell
/// whether a command line would be accepted (the README's and the CI templates' commands are checked that way).
enum CommandOptions {
    struct Set {
        var values: Swift.Set<String>
        var flags: Swift.Set<String>
        /// The value options that may be given more than once; any other given twice is a usage error.
        var repeatable: Swift.Set<String> = []
        /// Flags that may carry values (`--certification [PROGRAM]`).
        var optionalValue: Swift.Set<String> = []
    }

    /// `run`'s options, read from their one table (`RunOption.all`).
    static let run = Set(values: Swift.Set(RunOption.all.filter { $0.value != nil && !$0.optionalValue }.flatMap(\.names)),
                         flags: Swift.Set(RunOption.all.filter { $0.value == nil }.flatMap(\.names)),
                         repeatable: Swift.Set(RunOption.all.filter(\.repeatable).flatMap(\.names)),
                         optionalValue: Swift.Set(RunOption.all.filter(\.optionalValue).flatMap(\.names)))
    static let inspection = Set(values: ["--catalog", "--filter"], flags: ["-h", "--help"], repeatable: ["--filter"])
    static let list = Set(values: ["--catalog", "--filter", "--profile"], flags: ["-h", "--help", "--programs"], repeatable: ["--filter", "--profile"])
    static let validateURL = Set(values: ["--redirect-uri", "--reports", "--catalog", "--max-urls"], flags: ["-h", "--help", "--reproducible"],
                                 repeatable: ["--redirect-uri"])
    static let diff = Set(values: [], flags: ["-h", "--help"])
    static let merge = Set(values: ["--reports", "--cases", "--catalog", "--baseline", "--summary"], flags: ["--reproducible", "-h", "--help"])

    static let verify = Set(values: ["--cases", "--catalog"], flags: ["-h", "--help"])

    static let byCommand: [String: Set] = [
        "run": run, "lint": inspection, "list": list, "validate-url": validateURL, "diff": diff, "merge": merge, "verify": verify,
    ]
}

extension Arguments {
    init(_ arguments: [String], _ options: CommandOptions.Set) throws(UsageError) {
        try self.init(arguments, valueOptions: options.values, flagOptions: options.flags, repeatable: options.repeatable,
                      optionalValue: options.optionalValue)
    }
}

extension Command {
    /// Why `arguments` (a command line after `appflip-conformance`) would be refused as a usage error, or nil when
    /// its command and options are all known. Nothing runs.
    package static func check(_ arguments: [String]) -> String? {
        guard let name = arguments.first else { return "no command" }
        if ["help", "version", "-V", "--version"].contains(name) { return nil }
        guard let options = CommandOptions.byCommand[name] else { return "unknown command '\(name)'" }
        do {
            _ = try Arguments(Array(arguments.dropFirst()), options)
            return nil
        } catch {
            return error.message
        }
    }
}
