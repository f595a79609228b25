import AppFlipLoading
import AppFlipModel
import AppFlipReporting
import AppFlipSuite
import AppFlipSyntax

/// Loads the catalog and the cases the way every subcommand does, printing diagnostics on failure. Without
/// `--cases` or `--catalog` the suite built into this binary is used, so it runs from any directory.
enum SuiteLoading {
    /// Loads the requirement catalog (the built-in one when nil), printing diagnostics on failure.
    static func loadCatalog(_ catalog: String?, console: Console) -> Catalog? {
        do {
            guard let catalog else { return try BuiltInSuite.catalog() }
            return try CatalogLoader.load(path: catalog)
        } catch {
            report(error, console: console)
            return nil
        }
    }

    static func load(cases: String?, catalog: String?, console: Console) -> (Catalog, CaseSuite)? {
        if cases == nil, catalog == nil {
            do {
                return try BuiltInSuite.suite()
            } catch {
                report(error, console: console)
                return nil
            }
        }
        guard let loadedCatalog = loadCatalog(catalog, console: console) else { return nil }
        do {
            guard let cases else { return (loadedCatalog, try BuiltInSuite.cases(catalog: loadedCatalog)) }
            // Files under a checkout's Conformance/cases keep the groups (and the digest) the built-in suite has.
            let root = BuiltInSuite.casesRoot
            let groupRoot = cases.hasPrefix(root) ? root : nil
            let suite = try CaseLoader.load(from: cases, groupRoot: groupRoot, catalog: loadedCatalog)
            return (loadedCatalog, suite)
        } catch {
            report(error, console: console)
            return nil
        }
    }

    /// The built-in case files and catalog when their digest is `digest`: what an earlier run's results are derived
    /// again against (`diff`, `--rerun-failed`); nil for a run of other case files.
    static func builtIn(matching digest: String) -> (CaseSuite, Catalog)? {
        guard let (catalog, suite) = try? BuiltInSuite.suite(), suite.digest == digest else { return nil }
        return (suite, catalog)
    }

    static func report(_ error: DiagnosticList, console: Console) {
        // A diagnostic's lines are the suite's layout: the location and message, the offending line, the caret.
        for diagnostic in error.diagnostics { console.err(.suite(diagnostic.description)) }
        let errors = error.diagnostics.filter { $0.severity == .error }.count
        console.err("\(errors) error\(errors == 1 ? "" : "s")")
    }
}

extension SuiteLoading {
    enum Inspection {
        case loaded(Catalog, CaseSuite, CaseFilter, Arguments)
        case exit(Int32)
    }

    /// Reads `[PATH] [--catalog PATH] [--filter PATTERN]...` for the commands that only look at the cases
    /// (`lint`, `list`), prints help or errors, and loads the suite.
    static func loadForInspection(
        _ arguments: [String], usage: String, options: CommandOptions.Set = CommandOptions.inspection,
        console: Console
    ) -> Inspection {
        do {
            let parsed = try Arguments(arguments, options)
            if parsed.has(.help) {
                console.out(.suite(usage))
                return .exit(0)
            }
            guard parsed.positionals.count <= 1, !parsed.hasSeparator else {
                return .exit(Command.usageError("this command takes at most one PATH", usage: usage, console: console))
            }
            guard let (catalog, suite) = load(cases: parsed.positionals.first, catalog: try parsed.value(.catalog), console: console) else {
                return .exit(ExitStatus.usage.rawValue)
            }
            return .loaded(catalog, suite, CaseFilter(patterns: parsed.values(.filter)), parsed)
        } catch {
            return .exit(Command.usageError(error.message, usage: usage, console: console))
        }
    }
}
