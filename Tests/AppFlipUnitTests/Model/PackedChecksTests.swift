import AppFlipBase
import AppFlipReporting
import AppFlipTestSupport
import Testing

@testable import AppFlipModel

/// A run keeps each recorded result's checks packed into its text table (`CaseResult.pack`): reading them back
/// must give the very checks judged, and every report must read the same from a packed run as from a plain one.
@Suite("Packed checks")
struct PackedChecksTests {
    /// Checks drawn from every level, verdict and kind, with texts shared, distinct, empty and non-ASCII.
    static func checks(seed: UInt64, count: Int) -> [CheckResult] {
        var random = Mutator(seed: seed)
        let ids = ["AF-LINK-002", "AF-LINK-010", "AF-NATIVE-004", ""]
        let texts = [
            "", "no error", "state echoed (24 bytes)", "opened https://flip.example/a/x?state=\u{00E9}t\u{00E9}&code=‹redacted›",
            "Unicode: \u{1F600} e\u{0301} \u{0000} tab\there", "declined (opened nothing)",
        ]
        return (0..<count).map { index in
            let requirement = RequirementReference(id: ids[random.below(ids.count)], level: Level.allCases[random.below(Level.allCases.count)])
            let expected = random.below(3) == 0 ? "expected \(index)" : texts[random.below(texts.count)]
            let seen = random.below(3) == 0 ? "seen \(index) \(random.next())" : texts[random.below(texts.count)]
            if random.below(4) == 0 { return .notApplicable(requirement, expected: expected, reason: seen) }
            return CheckResult(
                requirement: requirement, expected: expected, observed: seen, verdict: Verdict.allCases[random.below(Verdict.allCases.count)])
        }
    }

    @Test("Packed checks read back as the checks judged, each field and kind, and each distinct text is kept once")
    func roundTrip() throws {
        let table = TextTable()
        var all: [CheckResult] = []
        for seed in 0..<200 as Range<UInt64> {
            let checks = Self.checks(seed: seed, count: Int(seed % 13))
            all += checks
            let packed = try #require(PackedChecks(checks, into: table))
            let read = packed.checks
            #expect(read == checks)
            #expect(read.map(\.observed) == checks.map(\.observed))
            #expect(read.map(\.notApplicable) == checks.map(\.notApplicable))
            #expect(read.map(\.requirement.level) == checks.map(\.requirement.level))
        }
        let distinct = Set(all.flatMap { [$0.requirement.id, $0.expected, $0.notApplicable ?? $0.observed] })
        #expect(table.count == distinct.count)
    }

    @Test("Two spellings of one text (equal as Strings, canonically) are numbered apart and read back byte for byte")
    func canonicalSpellings() throws {
        let (composed, decomposed) = ("\u{00E9}tat", "e\u{0301}tat")
        #expect(composed == decomposed)
        let table = TextTable()
        let checks = [
            CheckResult(
                requirement: RequirementReference(id: "AF-LINK-010", level: .must), expected: composed, observed: decomposed,
                verdict: .pass),
            CheckResult(
                requirement: RequirementReference(id: "AF-LINK-010", level: .must), expected: decomposed, observed: composed,
                verdict: .pass),
        ]
        let read = try #require(PackedChecks(checks, into: table)).checks
        #expect(read.map { Array($0.expected.utf8) } == [Array(composed.utf8), Array(decomposed.utf8)])
        #expect(read.map { Array($0.observed.utf8) } == [Array(decomposed.utf8), Array(composed.utf8)])
        #expect(table.count == 3)  // the requirement, and each spelling once
    }

    @Test("A packed result equals its plain self, reads the same, and takes later changes")
    func packedResult() {
        let table = TextTable()
        let checks = Self.checks(seed: 7, count: 9)
        let plain = CaseResult(
            conformanceCase: Fixtures.conformanceCase("app-link/demo/packed"), verdict: .fail, checks: checks,
            evidence: Evidence(link: "https://app.example/flip"), duration: 0.5)
        var packed = plain
        packed.pack(into: table)
        #expect(packed == plain)
        #expect(packed.hashValue == plain.hashValue)
        #expect(packed.checks == checks)
        #expect(packed.findings == plain.findings)
        #expect(packed.requirements == plain.requirements)
        #expect(plain.checks == checks, "packing a copy leaves the original as it was")
        let added = CheckResult(
            requirement: RequirementReference(id: "AF-LINK-012", level: .must), expected: "a fresh code",
            observed: "seen before", verdict: .fail)
        packed.checks.append(added)
        #expect(packed.checks == checks + [added])
        #expect(packed != plain)
    }

    @Test("Every report reads the same from a run whose results are packed")
    func reportsFromPackedRun() {
        let plain = Fixtures.mixedRun()
        var packed = plain
        let table = TextTable()
        for index in packed.results.indices { packed.results[index].pack(into: table) }
        #expect(table.count > 0)
        let before = ReportSet(run: plain, profiles: ["app-link"], reproducible: true).render()
        let after = ReportSet(run: packed, profiles: ["app-link"], reproducible: true).render()
        #expect(before.map(\.name) == after.map(\.name))
        for (old, new) in zip(before, after) { #expect(old.text == new.text, "\(old.name) differs") }
    }
}
