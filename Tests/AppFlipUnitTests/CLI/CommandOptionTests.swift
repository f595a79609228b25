import AppFlipReporting
import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipCLI

/// Every command's options are declared once (`CommandOption.byCommand`) and its help says exactly them: each
/// declared option is in the help, and every option the help's usage lines or option list name is declared. A misspelt
/// option cannot be read (reads go through the declarations), and a documented one cannot be missing.
@Suite("Command options")
struct CommandOptionTests {
    /// The options a help text names where it speaks of its own command: the usage lines at the top (up to the first
    /// blank line) and the lines of an option list (two spaces, then the option).
    private func named(in help: String) -> Set<String> {
        var words = Set<String>()
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        let usage = lines.prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        let listed = lines.filter { $0.hasPrefix("  -") }
        for line in usage + listed {
            for word in line.split(whereSeparator: { " [],.=".contains($0) }) where word.hasPrefix("-") && word.count > 1 && word != "--" {
                words.insert(String(word))
            }
        }
        return words
    }

    @Test("Each command's help names exactly the options its table declares", arguments: CommandOption.byCommand.keys.sorted())
    func helpMatchesTable(_ command: String) throws {
        let help = try #require(Usage.topics[command])
        let declared = Set(try #require(CommandOption.byCommand[command]).flatMap(\.names)).subtracting(["-h", "--help"])
        for name in declared { #expect(help.contains(name), "\(command)'s help does not name \(name)") }
        let named = named(in: help).subtracting(["-h", "--help"])
        #expect(named.isSubset(of: declared), "\(command)'s help names options it does not take: \(named.subtracting(declared).sorted())")
    }

    @Test("Where a help, the documentation's option table or CONTRIBUTING names the report files, it names every one a run writes")
    func reportFilesNamed() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let readme = try PackageRoot.documents.map(PackageRoot.text).joined(separator: "\n")
        let contributing = try String(contentsOfFile: root + "/CONTRIBUTING.md", encoding: .utf8)
        // Each text that lists report files: the `--reports` lines of every help, the option table's row and the
        // documentation's words on how reports are written, CONTRIBUTING's on writing them at once.
        var texts = Usage.topics.values.flatMap { help in
            help.split(separator: "\n").filter { $0.contains("--reports DIR") && $0.contains("junit.xml") }.map(String.init)
        }
        texts += readme.split(separator: "\n").filter { $0.contains("--reports DIR") && $0.contains("junit.xml") }.map(String.init)
        texts += [readme, contributing].compactMap { text in
            text.range(of: "The reports (`junit.xml`").map { String(text[$0.lowerBound...].prefix(200)) }
        }
        texts += contributing.range(of: "report files (").map { [String(contributing[$0.lowerBound...].prefix(120))] } ?? []
        #expect(texts.count >= 5, "\(texts)")
        for text in texts {
            for name in ReportSet.names { #expect(text.contains(name), "\(text.debugDescription) does not name \(name)") }
        }
    }

    @Test("Parsing reads the tables: every declared spelling parses for its command, and an undeclared one is refused with a suggestion")
    func parsingFollowsTables() throws {
        for (command, options) in CommandOption.byCommand {
            for option in options {
                for name in option.names {
                    let line = [command, name] + (option.value != nil && !option.optionalValue ? ["x"] : [])
                    #expect(Command.check(line) == nil, "\(line)")
                }
            }
        }
        #expect(Command.check(["list", "--filtr", "x"]) == "unknown option '--filtr' (did you mean '--filter'?)")
        #expect(Command.check(["verify", "--shard", "x"])?.hasPrefix("unknown option '--shard'") == true)
    }

    @Test("A flag is read under any of its spellings; a value option's values in order; one given twice is refused")
    func typedReads() throws {
        let parsed = try Arguments(["-q", "--filter", "a", "--filter", "b", "--seed", "3"], CommandOptions.run)
        #expect(parsed.has(.quiet) && !parsed.has(.verbose))
        #expect(parsed.values(.filter) == ["a", "b"])
        #expect(try parsed.value(.seed) == "3")
        #expect(try parsed.value(.timeout) == nil)
        #expect(throws: Arguments.UsageError.self) { try Arguments(["--seed", "1", "--seed", "2"], CommandOptions.run) }
        #expect(try parsed.number(.jobs, default: 4, range: 1...256) == 4)
        let bad = try Arguments(["--jobs", "0"], CommandOptions.run)
        #expect(throws: Arguments.UsageError.self) { try bad.number(.jobs, default: 4, range: 1...256) }
    }
}
