import AppFlipModel
import AppFlipSyntax

/// Loads the catalog and the cases the way every subcommand does, printing diagnostics on failure.
enum SuiteLoading {
    static let defaultCases = "Conformance/cases"
    static let defaultCatalog = "Conformance/requirements.catalog"

    static func load(cases: String?, catalog: String?, console: Console) -> (Catalog, CaseSuite)? {
        let catalogPath = catalog ?? defaultCatalog
        let loadedCatalog: Catalog
        do {
            loadedCatalog = try CatalogLoader.load(path: catalogPath)
        } catch {
            report(error, console: console)
            if catalog == nil { console.err("note: run from the package directory, or give --catalog PATH") }
            return nil
        }
        let casesPath = cases ?? defaultCases
        let groupRoot = cases == nil || casesPath.hasPrefix(defaultCases) ? defaultCases : nil
        do {
            let suite = try CaseLoader.load(from: casesPath, groupRoot: groupRoot, catalog: loadedCatalog)
            return (loadedCatalog, suite)
        } catch {
            report(error, console: console)
            return nil
        }
    }

    static func report(_ error: DiagnosticList, console: Console) {
        for diagnostic in error.diagnostics { console.err(diagnostic.description) }
        let errors = error.diagnostics.filter { $0.severity == .error }.count
        console.err("\(errors) error\(errors == 1 ? "" : "s")")
    }
}
