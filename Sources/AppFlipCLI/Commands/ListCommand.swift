import AppFlipModel

/// `list [PATH]`: the cases a run would execute, with their requirements.
enum ListCommand {
    static func main(_ arguments: [String], console: Console) -> Int32 {
        switch SuiteLoading.loadForInspection(arguments, usage: Usage.list, console: console) {
        case .exit(let status):
            return status
        case .loaded(_, let suite, let filter):
            for conformanceCase in suite.cases where filter.matches(conformanceCase) {
                console.out("\(conformanceCase.id)\t\(conformanceCase.requirements.map(\.description).joined(separator: ", "))")
            }
            return 0
        }
    }
}
