import AppFlipModel

/// `list [PATH]`: the cases a run would execute, with their requirements.
enum ListCommand {
    static func main(_ arguments: [String], console: Console) -> Int32 {
        do {
            let parsed = try Arguments(arguments, valueOptions: ["--catalog", "--filter"], flagOptions: ["-h", "--help"])
            if parsed.flags.contains("-h") || parsed.flags.contains("--help") {
                console.out(Usage.list)
                return 0
            }
            guard parsed.positionals.count <= 1, !parsed.hasSeparator else {
                return Command.usageError("list takes at most one PATH", usage: Usage.list, console: console)
            }
            guard let (_, suite) = SuiteLoading.load(cases: parsed.positionals.first, catalog: try parsed.value("--catalog"),
                                                     console: console) else {
                return ExitStatus.usage.rawValue
            }
            let filter = CaseFilter(patterns: parsed.values("--filter"))
            for conformanceCase in suite.cases where filter.matches(conformanceCase) {
                console.out("\(conformanceCase.id)\t\(conformanceCase.requirements.map(\.description).joined(separator: ", "))")
            }
            return 0
        } catch {
            return Command.usageError(error.message, usage: Usage.list, console: console)
        }
    }
}
