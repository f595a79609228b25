/// The options each command takes, as parsing needs them, made from the command's table (`CommandOption.byCommand`):
/// the commands parse with it, and `Command.check` uses it to tell whether a command line would be accepted (the
/// the documentation's and the CI templates' commands are checked that way).
enum CommandOptions {
    struct Set {
        var values: Swift.Set<String>
        var flags: Swift.Set<String>
        /// The value options that may be given more than once; any other given twice is a usage error.
        var repeatable: Swift.Set<String> = []
        /// Flags that may carry values (`--certification [PROGRAM]`).
        var optionalValue: Swift.Set<String> = []

        init(_ table: [CommandOption]) {
            values = Swift.Set(table.filter { $0.value != nil && !$0.optionalValue }.flatMap(\.names))
            flags = Swift.Set(table.filter { $0.value == nil }.flatMap(\.names))
            repeatable = Swift.Set(table.filter(\.repeatable).flatMap(\.names))
            optionalValue = Swift.Set(table.filter(\.optionalValue).flatMap(\.names))
        }
    }

    static let run = Set(CommandOption.run)
    static let inspection = command("lint")
    static let list = command("list")
    static let validateURL = command("validate-url")
    static let diff = command("diff")
    static let merge = command("merge")
    static let verify = command("verify")
    static let certify = command("certify")
    static let detection = command("detection")

    static let byCommand: [String: Set] = CommandOption.byCommand.mapValues(Set.init)

    private static func command(_ name: String) -> Set { Set(CommandOption.byCommand[name] ?? []) }
}

extension Arguments {
    init(_ arguments: [String], _ options: CommandOptions.Set) throws(UsageError) {
        try self.init(
            arguments, valueOptions: options.values, flagOptions: options.flags, repeatable: options.repeatable,
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
