import AppFlipBase
import AppFlipReporting
import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipModel

/// A run moves each recorded result's evidence and check texts into its spool (`CaseResult.spool(into:)`): reading
/// them back must give the very checks and evidence judged, byte for byte, and every report must read the same from a
/// spooled run as from one held in memory.
@Suite("Result spool")
struct ResultSpoolTests {
    /// Checks drawn from every level, verdict and kind, with texts shared, distinct, empty and non-ASCII.
    static func checks(seed: UInt64, count: Int) -> [CheckResult] {
        var random = Mutator(seed: seed)
        let ids = ["AF-LINK-002", "AF-LINK-010", "AF-NATIVE-004", "", "A-REQUIREMENT-ID-LONGER-THAN-FIFTEEN"]
        let texts = [
            "", "no error", "state echoed (24 bytes)", "opened https://flip.example/a/x?state=\u{00E9}t\u{00E9}&code=‹redacted›",
            "Unicode: \u{1F600} e\u{0301} \u{0000} tab\there", "declined (opened nothing)",
            // Longer than a shared text may be: written out in full.
            String(repeating: "a long observation ", count: 60),
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

    /// Evidence with every part: exchanges with and without a time and a duration, headers both ways, long texts.
    static func evidence(seed: UInt64) -> Evidence {
        var random = Mutator(seed: seed)
        let exchanges = (0..<random.below(4)).map { index in
            Evidence.Exchange(
                "POST /token HTTP/1.1 \(index)\n→ 400 {\"error\":\"invalid_grant\"} \u{1F600}",
                sentAt: random.below(2) == 0 ? nil : Date(timeIntervalSinceReferenceDate: Double(random.next() % 1_000_000_000) / 7),
                milliseconds: random.below(2) == 0 ? nil : random.below(5000),
                requestHeaders: random.below(2) == 0 ? [] : [Evidence.Header("Host", "server.example"), Evidence.Header("", "raw line")],
                responseHeaders: [Evidence.Header("Content-Type", "application/json; charset=\u{00E9}")])
        }
        return Evidence(
            link: random.below(3) == 0 ? "" : "https://app.example/flip?state=\(random.next())",
            answer: String(repeating: "answer ", count: random.below(3000)), stderr: random.below(2) == 0 ? "" : "log line\nline two",
            exchanges: exchanges)
    }

    static func result(seed: UInt64) -> CaseResult {
        CaseResult(
            conformanceCase: Fixtures.conformanceCase("app-link/demo/spooled-\(seed)"), verdict: .fail,
            checks: checks(seed: seed, count: Int(seed % 13)), evidence: evidence(seed: seed), duration: 0.5)
    }

    /// `results`, each spooled into `spool` in order.
    static func spooled(_ results: [CaseResult], into spool: ResultSpool) -> [CaseResult] {
        results.map { result in
            var result = result
            result.spool(into: spool)
            return result
        }
    }

    @Test("Spooled results read back as judged: every check's field and kind, the evidence to the bit, the outlines")
    func roundTrip() throws {
        let spool = try #require(ResultSpool.temporary())
        // Enough records that most are read from the file and the last few from the buffer.
        let plain = (0..<300 as Range<UInt64>).map(Self.result)
        let spooled = Self.spooled(plain, into: spool)
        for (before, after) in zip(plain, spooled) {
            #expect(after.checks == before.checks)
            #expect(after.checks.map(\.observed) == before.checks.map(\.observed))
            #expect(after.checks.map(\.notApplicable) == before.checks.map(\.notApplicable))
            #expect(after.checkOutlines == before.checks.map(CheckOutline.init))
            // The findings read only the failed checks' texts, skipping the others' by their lengths.
            #expect(after.findings == before.checks.filter(\.isFinding))
            #expect(after.findings.map(\.observed) == before.checks.filter(\.isFinding).map(\.observed))
            #expect(after.evidence == before.evidence)
            #expect(after.evidence.exchanges.map(\.sentAt) == before.evidence.exchanges.map(\.sentAt))
            #expect(after.requirements == before.requirements)
            #expect(after == before)
            #expect(after.hashValue == before.hashValue)
        }
    }

    @Test("Two spellings of one text (equal as Strings, canonically) read back byte for byte")
    func canonicalSpellings() throws {
        let (composed, decomposed) = ("\u{00E9}tat", "e\u{0301}tat")
        #expect(composed == decomposed)
        let checks = [
            CheckResult(
                requirement: RequirementReference(id: "AF-LINK-010", level: .must), expected: composed, observed: decomposed,
                verdict: .pass)
        ]
        var result = CaseResult(
            conformanceCase: Fixtures.conformanceCase("app-link/demo/spellings"), verdict: .pass, checks: checks,
            evidence: Evidence(link: decomposed, answer: composed), duration: 0)
        result.spool(into: try #require(ResultSpool.temporary()))
        #expect(result.checks.map { Array($0.expected.utf8) } == [Array(composed.utf8)])
        #expect(result.checks.map { Array($0.observed.utf8) } == [Array(decomposed.utf8)])
        #expect(Array(result.evidence.link.utf8) == Array(decomposed.utf8))
        #expect(Array(result.evidence.answer.utf8) == Array(composed.utf8))
    }

    @Test("Results in one spool share their repeated check texts by bytes: each reads back its own spelling")
    func sharedTexts() throws {
        let spool = try #require(ResultSpool.temporary())
        let plain = (0..<200 as Range<UInt64>).map(Self.result)
        let spooled = Self.spooled(plain, into: spool)
        let texts = plain.flatMap(\.checks).flatMap { [$0.expected, $0.notApplicable ?? $0.observed] }
        let kept = spool.withSharedTexts { $0 }
        #expect(kept.count > 1 && kept.count <= Set(texts).count, "each repeated text is kept once")
        #expect(kept.allSatisfy { $0.utf8.count <= TextTable.longest })
        #expect(spooled.map(\.checks) == plain.map(\.checks))

        // The same text in two spellings, and a spelling met first in another result: each as it was judged.
        let (composed, decomposed) = ("\u{00E9}tat", "e\u{0301}tat")
        let reference = RequirementReference(id: "AF-LINK-010", level: .must)
        var results = [composed, decomposed, composed, decomposed].enumerated().map { index, text in
            CaseResult(
                conformanceCase: Fixtures.conformanceCase("app-link/demo/shared-\(index)"), verdict: .pass,
                checks: [CheckResult(requirement: reference, expected: text, observed: index < 2 ? decomposed : composed, verdict: .pass)],
                evidence: Evidence(link: text), duration: 0)
        }
        for index in results.indices { results[index].spool(into: spool) }
        for (index, result) in results.enumerated() {
            let expected = index % 2 == 0 ? composed : decomposed
            #expect(result.checks.map { Array($0.expected.utf8) } == [Array(expected.utf8)])
            #expect(result.checks.map { Array($0.observed.utf8) } == [Array((index < 2 ? decomposed : composed).utf8)])
        }
    }

    @Test("A spooled result takes later changes, and a copy spooled leaves the original as it was")
    func changes() throws {
        let plain = Self.result(seed: 7)
        var spooled = plain
        spooled.spool(into: try #require(ResultSpool.temporary()))
        #expect(spooled.evidenceIsSpooled && !plain.evidenceIsSpooled)
        #expect(plain.checks == Self.result(seed: 7).checks, "spooling a copy leaves the original as it was")
        let added = CheckResult(
            requirement: RequirementReference(id: "AF-LINK-012", level: .must), expected: "a fresh code",
            observed: "seen before", verdict: .fail)
        spooled.checks.append(added)
        #expect(spooled.checks == plain.checks + [added])
        #expect(spooled.evidence == plain.evidence, "the evidence is still read from the spool")
        // A run appends checks to recorded results at its end (a code seen again): that must not bring their
        // evidence back into memory.
        #expect(spooled.evidenceIsSpooled, "appending a check leaves the evidence in the spool")
        spooled.checks.append(added)
        #expect(spooled.checks == plain.checks + [added, added])
        #expect(spooled.evidenceIsSpooled)
        #expect(spooled.checkOutlines.count == plain.checks.count + 2)
        spooled.evidence.stderr = "changed"
        #expect(spooled.evidence.stderr == "changed")
        #expect(!spooled.evidenceIsSpooled, "evidence set is kept as set")
        #expect(spooled.checks == plain.checks + [added, added])
        #expect(spooled != plain)
    }

    @Test("A spool whose file refuses a write keeps what it buffered, and later results stay in memory")
    func refusedWrite() throws {
        // A descriptor open for reading only: the first flush fails.
        let spool = ResultSpool(fd: open("/dev/null", O_RDONLY))
        let big = CaseResult(
            conformanceCase: Fixtures.conformanceCase("app-link/demo/big"), verdict: .pass, checks: Self.checks(seed: 1, count: 3),
            evidence: Evidence(answer: String(repeating: "x", count: 70_000)), duration: 0)
        var first = big
        first.spool(into: spool)
        var second = Self.result(seed: 5)
        second.spool(into: spool)
        #expect(first.evidence == big.evidence, "the record whose flush failed is read from the buffer")
        #expect(first.checks == big.checks)
        #expect(second == Self.result(seed: 5), "a result the spool refused keeps its texts in memory")
        #expect(second.checks == Self.result(seed: 5).checks)
    }

    @Test("Every report reads the same from a run whose results are spooled")
    func reportsFromSpooledRun() throws {
        let plain = Fixtures.mixedRun()
        var spooled = plain
        let spool = try #require(ResultSpool.temporary())
        for index in spooled.results.indices { spooled.results[index].spool(into: spool) }
        let before = ReportSet(run: plain, profiles: ["app-link"], reproducible: true).render()
        let after = ReportSet(run: spooled, profiles: ["app-link"], reproducible: true).render()
        #expect(before.map(\.name) == after.map(\.name))
        for (old, new) in zip(before, after) { #expect(old.text == new.text, "\(old.name) differs") }
    }

    @Test("The spool's file has no name once made: nothing is left in the temporary directory")
    func leavesNothing() throws {
        let directory = FileManager.default.temporaryDirectory.path + "/spool-\(UInt64.random(in: 0 ... .max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var result = Self.result(seed: 3)
        result.spool(into: try #require(ResultSpool.temporary(in: directory)))
        #expect(result.evidence == Self.result(seed: 3).evidence)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }
}
