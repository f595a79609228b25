import AppFlipModel

/// `lint [PATH]`: checks case files and the catalog; exit 2 with every diagnostic on error.
enum LintCommand {
    static func main(_ arguments: [String], console: Console) -> Int32 {
        let parsed: Arguments
        do {
            parsed = try Arguments(arguments, valueOptions: ["--catalog"], flagOptions: ["-h", "--help"])
            if parsed.flags.contains("-h") || parsed.flags.contains("--help") {
                console.out(Usage.lint)
                return 0
            }
            guard parsed.positionals.count <= 1, !parsed.hasSeparator else {
                return Command.usageError("lint takes at most one PATH", usage: Usage.lint, console: console)
            }
            guard let (catalog, suite) = SuiteLoading.load(cases: parsed.positionals.first, catalog: try parsed.value("--catalog"),
                                                            console: console) else {
                return ExitStatus.usage.rawValue
            }
            let requirements = Set(suite.cases.flatMap(\.requirements).map(\.id))
            console.out("\(suite.cases.count) cases in \(suite.files.count) files check \(requirements.count) of \(catalog.requirements.count) requirements: no problems")
            return 0
        } catch {
            return Command.usageError(error.message, usage: Usage.lint, console: console)
        }
    }
}
