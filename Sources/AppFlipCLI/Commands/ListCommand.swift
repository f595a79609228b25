import AppFlipModel

/// `list [PATH]`: the cases a run would execute, with their requirements.
enum ListCommand {
    static func main(_ arguments: [String], console: Console) -> Int32 {
        switch SuiteLoading.loadForInspection(arguments, usage: Usage.list, console: console) {
        case .exit(let status):
            return status
        case .loaded(_, let suite, let filter):
            let matching = suite.cases.filter { filter.matches($0) }
            guard !matching.isEmpty else {
                // As `run` does: a filter that matches nothing is a mistake, not an empty answer.
                console.err("error: no case matches --filter \(filter.patterns.joined(separator: " --filter "))")
                return ExitStatus.usage.rawValue
            }
            for conformanceCase in matching {
                console.out("\(conformanceCase.id)\t\(conformanceCase.requirements.map(\.description).joined(separator: ", "))")
            }
            return 0
        }
    }
}
