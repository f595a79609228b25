import AppFlipCLI
import AppFlipConformance
import AppFlipTestSupport
import Foundation
import Testing

/// The lists a partner reads in README and Documentation/GettingStarted.md are the lists the code declares: the profiles (`Profile`), the library's
/// environment variables (`EnvironmentVariable`), and `--profile`'s help, made from `Profile` too.
@Suite("Documented lists")
struct DocumentedListsTests {
    /// The rows of the table in `document` whose header row starts with `header`.
    private func table(_ header: String, in document: String = "README.md") throws -> [Substring] {
        let lines = try PackageRoot.text(document).split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix(header) }, "\(document) has no table headed \(header)")
        return Array(lines[(start + 2)...].prefix { $0.hasPrefix("|") })
    }

    @Test("README's profile table has a row for each profile, in the declared order, and no other")
    func profiles() throws {
        let rows = try table("| Profile | What it drives |")
        let named = rows.compactMap { row in row.split(separator: "`").dropFirst().first.map(String.init) }
        #expect(named == Profile.allCases.map(\.rawValue))
    }

    @Test("Documentation/GettingStarted.md's table of the library's variables names exactly the variables the library reads")
    func environmentVariables() throws {
        let rows = try table("| Variable | Meaning |", in: "Documentation/GettingStarted.md")
        var named = Set<String>()
        for row in rows {
            for word in row.split(whereSeparator: { !($0.isUppercase || $0 == "_") }) where word.hasPrefix("APPFLIP_") { named.insert(String(word)) }
        }
        #expect(
            named == Set(ConformanceTarget.environmentVariables), "documented: \(named.sorted()); declared: \(ConformanceTarget.environmentVariables)"
        )
    }

    @Test("help run's --profile line names every profile (from the declaration)")
    func profileHelp() throws {
        let help = try #require(Usage.topics["run"])
        let line = help.split(separator: "\n").drop { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("--profile NAME") }.prefix(3)
            .joined(separator: " ")
        for profile in Profile.allCases { #expect(line.contains(profile.rawValue), "\(profile.rawValue) missing from: \(line)") }
    }
}
