import AppFlipBase
import AppFlipModel
import AppFlipTestSupport
import Testing

@testable import AppFlipReporting

/// report.html's filter attributes, written as bytes, against the composition they replaced: each list's values
/// once, lower-cased (`HTMLReport.lowercased`) and escaped (`HTMLText.text`), joined by spaces.
@Suite("report.html's filter attributes against their composed oracle")
struct FilterAttributesTests {
    static func oracle(verdicts: [Verdict], profiles: [String], levels: [Level], search: [String]) -> String {
        func once(_ values: [String]) -> [String] { values.enumerated().filter { !values[..<$0.offset].contains($0.element) }.map(\.element) }
        return " data-f data-verdict=\"" + once(verdicts.map(\.rawValue)).joined(separator: " ") + "\" data-profile=\""
            + once(profiles).map(HTMLText.text).joined(separator: " ") + "\" data-level=\""
            + once(levels.map(HTMLReport.token)).joined(separator: " ") + "\" data-search=\""
            + once(search).map { HTMLText.text(HTMLReport.lowercased($0)) }.joined(separator: " ") + "\""
    }

    @Test("Every list reads as the composed oracle reads it, on 20,000 seeded lists (ASCII, escapes, controls, Unicode)")
    func againstOracle() {
        let pieces = [
            "AF-LINK-010", "app-link", "A", "z", " ", "&", "<", ">", "\"", "'", "\t", "\n", "\u{7F}", "\u{1}", "\u{85}", "É", "İ", "K", "\u{202E}",
            "…", "‹redacted›", "~", "Bench/Valid-Link/R000001",
        ]
        var random = Mutator(seed: 20_261_205)
        func value() -> String { (0..<random.below(5)).map { _ in pieces[random.below(pieces.count)] }.joined() }
        for _ in 0..<20_000 {
            let verdicts = (0..<random.below(3)).map { _ in Verdict.allCases[random.below(Verdict.allCases.count)] }
            let profiles = (0..<random.below(3)).map { _ in value() }
            let levels = (0..<random.below(3)).map { _ in Level.allCases[random.below(Level.allCases.count)] }
            // Over 16 values the repeats are found with a set: both ways are read.
            let search = (0..<random.below(random.below(4) == 0 ? 24 : 6)).map { _ in random.below(3) == 0 ? "AF-LINK-010" : value() }
            let written = HTMLReport.filterAttributes(verdicts: verdicts, profiles: profiles, levels: levels, search: search)
            let expected = Self.oracle(verdicts: verdicts, profiles: profiles, levels: levels, search: search)
            guard written == expected else {
                Issue.record("\(search.debugDescription): \(written.debugDescription), the oracle \(expected.debugDescription)")
                return
            }
        }
        #expect(
            HTMLReport.filterAttributes(verdicts: [.fail], profiles: ["app-link"], levels: [.must], search: ["AF-LINK-010", "A&B", "AF-LINK-010"])
                == " data-f data-verdict=\"fail\" data-profile=\"app-link\" data-level=\"MUST\" data-search=\"af-link-010 a&amp;b\"")
    }

    @Test("A case's row writes what the general attributes write for its lists, on 10,000 seeded cases")
    func caseRowAgainstGeneral() {
        let ids = [
            "AF-LINK-010", "AF-LINK-011", "AF-LINK-01", "af-link-010", "A&B", "Bench/Valid-Link/R000001", "\u{C9}tat", "K\u{212A}", "KK", "<x>",
            "e\u{301}", "\u{E9}",
        ]
        var random = Mutator(seed: 0x524F_5753)
        for _ in 0..<10_000 {
            let verdict = Verdict.allCases[random.below(Verdict.allCases.count)]
            let profile = ["app-link", "A&B", "\u{C9}"][random.below(3)]
            let id = ids[random.below(ids.count)]
            // Over 16 requirements the repeats are found with a set: both ways are read.
            let requirements = (0..<random.below(random.below(4) == 0 ? 24 : 6)).map { _ in
                RequirementReference(id: ids[random.below(ids.count)], level: Level.allCases[random.below(Level.allCases.count)])
            }
            var bytes = ByteBuffer()
            let plainIDs = requirements.allSatisfy { HTMLText.isPlainASCII($0.id) }
            HTMLReport.appendCaseFilterAttributes(
                verdict: verdict, profile: profile, id: id, requirements: requirements, plainIDs: plainIDs, to: &bytes)
            let written = bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
            let expected = HTMLReport.filterAttributes(
                verdicts: [verdict], profiles: [profile], levels: requirements.map(\.level), search: [id] + requirements.map(\.id))
            guard written == expected else {
                Issue.record("\(id) \(requirements.map(\.id)): \(written.debugDescription), expected \(expected.debugDescription)")
                return
            }
        }
    }

    @Test("A row's verdict cell spells each verdict as its icon and raw value")
    func verdictCells() {
        for verdict in Verdict.allCases {
            let cell = HTMLReport.verdictCell(verdict).withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
            #expect(cell == "</code></td><td class=\"tag \(verdict.rawValue)\">\(HTMLReport.icon(verdict)) \(verdict.rawValue)")
        }
        #expect(Set(Verdict.allCases.map(HTMLReport.icon)).count == Verdict.allCases.count)
    }
}
