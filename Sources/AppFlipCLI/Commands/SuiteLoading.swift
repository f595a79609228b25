import AppFlipModel
import AppFlipSyntax

/// Loads the catalog and the cases the way every subcommand does, printing diagnostics on failure.
enum SuiteLoading {
    static let defaultCases = "Conformance/cases"
    static let defaultCatalog = "Conformance/requirements.catalog"

    /// Loads the requirement catalog (the default path when nil), printing diagnostics on failure.
    static func loadCatalog(_ catalog: String?, console: Console) -> Catalog? {
        do {
            return try CatalogLoader.load(path: catalog ?? defaultCatalog)
        } catch {
            report(error, console: console)
            if catalog == nil { console.err("note: run from the package directory, or give --catalog PATH") }
            return nil
        }
    }

    static func load(cases: String?, catalog: String?, console: Console) -> (Catalog, CaseSuite)? {
        guard let loadedCatalog = loadCatalog(catalog, console: console) else { return nil }
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

extension SuiteLoading {
    enum Inspection {
        case loaded(Catalog, CaseSuite, CaseFilter)
        case exit(Int32)
    }

    /// Reads `[PATH] [--catalog PATH] [--filter PATTERN]...` for the commands that only look at the cases
    /// (`lint`, `list`), prints help or errors, and loads the suite.
    static func loadForInspection(_ arguments: [String], usage: String, console: Console) -> Inspection {
        do {
            let parsed = try Arguments(arguments, CommandOptions.inspection)
            if parsed.flags.contains("-h") || parsed.flags.contains("--help") {
                console.out(usage)
                return .exit(0)
            }
            guard parsed.positionals.count <= 1, !parsed.hasSeparator else {
                return .exit(Command.usageError("this command takes at most one PATH", usage: usage, console: console))
            }
            guard let (catalog, suite) = load(cases: parsed.positionals.first, catalog: try parsed.value("--catalog"), console: console) else {
                return .exit(ExitStatus.usage.rawValue)
            }
            return .loaded(catalog, suite, CaseFilter(patterns: parsed.values("--filter")))
        } catch {
            return .exit(Command.usageError(error.message, usage: usage, console: console))
        }
    }
}
