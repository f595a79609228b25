import AppFlipModel
import AppFlipReporting
import AppFlipRunner

/// `list [PATH]`: the cases a run would execute, with their requirements, and the requirements no case judges;
/// `list --programs`: the certification programs.
enum ListCommand {
    static func main(_ arguments: [String], console: Console) -> Int32 {
        switch SuiteLoading.loadForInspection(arguments, usage: Usage.list, options: CommandOptions.list, console: console) {
        case .exit(let status):
            return status
        case .loaded(let catalog, let suite, let filter, let parsed):
            if parsed.has(.programs) {
                guard filter.patterns.isEmpty, parsed.values(.profile).isEmpty else {
                    return Command.usageError(
                        "--programs lists whole programs: it takes no --filter or --profile", usage: Usage.list, console: console)
                }
                return programs(catalog, suite, console: console)
            }
            let profiles: [Profile]
            do {
                profiles = try CertificationSelection.profiles(parsed)
            } catch {
                return Command.usageError(error.message, usage: Usage.list, console: console)
            }
            return list(suite, catalog, profiles: profiles, filter: filter, console: console)
        }
    }

    /// The cases of `profiles` that `filter` matches, each with its requirements; without a filter, then what no case
    /// of those profiles judges, each with why.
    private static func list(_ suite: CaseSuite, _ catalog: Catalog, profiles: [Profile], filter: CaseFilter, console: Console) -> Int32 {
        let matching = suite.cases.filter { profiles.contains($0.profile) && filter.matches($0) }
        guard !matching.isEmpty else {
            // As `run` does: a filter that matches nothing is a mistake, not an empty answer.
            console.err(
                "error: no case matches "
                    + (filter.patterns.isEmpty ? "the profiles" : "--filter \(filter.patterns.joined(separator: " --filter "))"))
            return ExitStatus.usage.rawValue
        }
        for conformanceCase in matching {
            console.out("\(conformanceCase.id)\t\(conformanceCase.requirements.map(\.description).joined(separator: ", "))")
        }
        guard filter.patterns.isEmpty else { return 0 }
        // What a run of these profiles judges no case of: each with why, so a reviewer knows what to attest.
        let covered = Set(suite.cases.flatMap(\.requirements).map(\.id))
        for requirement in catalog.requirements
        where !covered.contains(requirement.id)
            && profiles.contains(where: { $0.rawValue == requirement.profile })
        {
            console.out(
                .suite(
                    "# \(requirement.id) (\(requirement.level.rawValue), \(requirement.profile)) \(requirement.title) — "
                        + (requirement.uncoveredReason ?? "no case").split(whereSeparator: \.isNewline).joined(separator: " ")))
        }
        return 0
    }

    /// Each program: its key and title, its profiles and cases, what it covers and leaves out, what it needs, what a
    /// reviewer attests.
    private static func programs(_ catalog: Catalog, _ suite: CaseSuite, console: Console) -> Int32 {
        guard !catalog.programs.isEmpty else {
            console.err("error: the catalog declares no certification programs")
            return ExitStatus.usage.rawValue
        }
        for program in catalog.programs {
            let cases = suite.cases.filter { program.judges($0) }.count
            console.out(.suite("\(program.key): \(program.title) — \(cases) cases of " + program.profiles.map(\.rawValue).joined(separator: ", ")))
            console.out(.suite("  covers: " + program.covers.split(whereSeparator: \.isNewline).joined(separator: " ")))
            if let why = program.leavesOutWhy {
                console.out(
                    .suite(
                        "  leaves out \(program.leavesOut.joined(separator: ", ")): " + why.split(whereSeparator: \.isNewline).joined(separator: " "))
                )
            }
            // What `run --certification` checks before it connects: the adapters its cases send through, then the
            // configuration keys the catalog declares.
            let adapters = AdapterContracts.builtIn.all.filter { contract in
                suite.cases.contains { program.judges($0) && AdapterContracts.sends($0, through: contract) }
            }.map { "an adapter for \($0.key)" }
            console.out(.suite("  needs: " + (adapters + program.needs.map(\.key)).joined(separator: ", ")))
            let toAttest = catalog.toAttest(for: [program])
            console.out(
                .suite("  to attest: " + (toAttest.isEmpty ? "nothing" : toAttest.map { "\($0.id) (\($0.level.rawValue))" }.joined(separator: ", "))))
        }
        return 0
    }
}
