import AppFlipModel
import AppFlipReporting

/// `lint [PATH]`: checks case files and the catalog; exit 2 with every diagnostic on error.
enum LintCommand {
    static func main(_ arguments: [String], console: Console) -> Int32 {
        switch SuiteLoading.loadForInspection(arguments, usage: Usage.lint, console: console) {
        case .exit(let status):
            return status
        case .loaded(let catalog, let suite, _, _):
            let requirements = Set(suite.cases.flatMap(\.requirements).map(\.id))
            let planned = catalog.requirements.filter { $0.planned != nil }.count
            let unobservable = catalog.requirements.filter { $0.notObservable != nil }.count
            let bySuite = catalog.requirements.filter { $0.judgedBySuite != nil }.count
            console.out(
                "\(suite.cases.count) cases in \(suite.files.count) files cover \(requirements.count) of \(catalog.requirements.count) requirements "
                    + "(\(planned) planned, \(unobservable) not observable, \(bySuite) judged by the suite itself): no problems")
            return 0
        }
    }
}
