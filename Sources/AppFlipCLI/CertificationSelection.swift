import AppFlipBase
import AppFlipModel

/// Which cases a run selects: its profiles and filters, or, for a certification, its programs' cases and nothing
/// else. `run` selects with it, and `merge` selects again from a shard's recorded arguments to check membership.
enum CertificationSelection {
    /// The profiles `--profile` names, in the order given; every profile when none is named.
    static func profiles(_ parsed: Arguments) throws(Arguments.UsageError) -> [Profile] {
        let names = parsed.values(.profile)
        guard !names.isEmpty else { return Profile.allCases }
        var profiles: [Profile] = []
        for name in names {
            guard let profile = Profile(rawValue: name) else {
                throw Arguments.UsageError(
                    message: "--profile takes one of \(Profile.allCases.map(\.rawValue).joined(separator: ", ")), not '\(name)'")
            }
            profiles.append(profile)
        }
        return profiles
    }

    /// The program names `--certification` was given (each value may list several, comma-separated), or nil when it
    /// was not given.
    static func names(_ parsed: Arguments) -> [String]? {
        guard parsed.has(.certification) else { return nil }
        return parsed.values(.certification).flatMap { $0.split(separator: ",").map(String.init) }
    }

    /// The programs `--certification` names (each value may list several, comma-separated), in the catalog's
    /// order; every program of the catalog when none is named.
    static func programs(_ names: [String], catalog: Catalog) throws(Arguments.UsageError) -> [CertificationProgram] {
        let keys = catalog.programs.map(\.key)
        guard !catalog.programs.isEmpty else {
            throw Arguments.UsageError(
                message: "--certification: the catalog declares no programs (its 'programs:' section), so nothing can be certified")
        }
        for name in names where catalog.program(name) == nil {
            let hint = Suggestion.closest(to: name, among: keys).map { " (did you mean '\($0)'?)" } ?? ""
            throw Arguments.UsageError(
                message: "--certification takes a program, one of \(keys.joined(separator: ", ")), not '\(name)'\(hint)",
                details: catalog.programs.map { "  \($0.key): \($0.title) (\($0.profiles.map(\.rawValue).joined(separator: ", ")))" })
        }
        return names.isEmpty ? catalog.programs : catalog.programs.filter { names.contains($0.key) }
    }

    /// The profiles the programs need, each once, in the order the programs name them.
    static func profiles(of programs: [CertificationProgram]) -> [Profile] {
        var profiles: [Profile] = []
        for program in programs {
            for profile in program.profiles where !profiles.contains(profile) { profiles.append(profile) }
        }
        return profiles
    }

    /// The cases a run selects: of `profiles` and matching `filter`; in a certification (`programs` not empty), every
    /// case one of the programs judges.
    static func cases(
        _ cases: [ConformanceCase], profiles: [Profile], filter: CaseFilter,
        programs: [CertificationProgram]
    ) -> [ConformanceCase] {
        guard programs.isEmpty else { return cases.filter { conformanceCase in programs.contains { $0.judges(conformanceCase) } } }
        return cases.filter { profiles.contains($0.profile) && filter.matches($0) }
    }
}
