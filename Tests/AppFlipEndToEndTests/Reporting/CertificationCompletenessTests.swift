import AppFlipEvidence
import AppFlipLoading
import AppFlipModel
import AppFlipReporting
import AppFlipTestSupport
import Foundation
import Testing

/// A certification is its programs' whole case lists, held by ID against the suite this binary carries: a run,
/// a merge or a bundle that leaves a case out, holds one twice or adds one certifies nothing, whoever rendered it.
@Suite("A certification is its program's whole case list", .serialized)
struct CertificationCompletenessTests {
    private func program(_ key: String = "p") -> CertificationProgram {
        CertificationProgram(key: key, title: "P", profiles: [.appLink], covers: "c")
    }

    private func facts(_ ids: [String]) -> [ProgramOutcome.CaseFacts] {
        ids.map { ProgramOutcome.CaseFacts(id: $0, profile: "app-link", verdict: .pass, untested: false, requirements: ["AF-LINK-002"]) }
    }

    @Test("The rule: every listed case once; missing, extra and repeated cases are each named; without the list nothing is held")
    func rule() {
        let expected = ["app-link/a", "app-link/b", "app-link/c", "app-link/d", "app-link/e"]
        let whole = ProgramOutcome.judge(program(), cases: facts(expected.reversed()), incomplete: false, shard: nil, expected: expected)
        #expect(whole.status == .attestedByPartner, "\(whole.reason)")
        let missing = ProgramOutcome.judge(program(), cases: facts(["app-link/a"]), incomplete: false, shard: nil, expected: expected)
        #expect(missing.status == .notCertified && missing.failedBySuite)
        #expect(missing.reason == "4 of its 5 cases missing (app-link/b, app-link/c, app-link/d and 1 more)", "\(missing.reason)")
        let extra = ProgramOutcome.judge(program(), cases: facts(expected + ["app-link/z"]), incomplete: false, shard: nil, expected: expected)
        #expect(extra.reason == "1 case not of its case list (app-link/z)", "\(extra.reason)")
        let twice = ProgramOutcome.judge(program(), cases: facts(expected + ["app-link/c"]), incomplete: false, shard: nil, expected: expected)
        #expect(twice.reason == "1 case recorded more than once (app-link/c)", "\(twice.reason)")
        // A shard is judged by merge; a list not at hand is not held (the case files are not the suite's).
        #expect(ProgramOutcome.judge(program(), cases: facts(["app-link/a"]), incomplete: false, shard: "1/2", expected: expected).status == .shard)
        #expect(ProgramOutcome.judge(program(), cases: facts(["app-link/a"]), incomplete: false, shard: nil).status == .attestedByPartner)
    }

    @Test("A certification with three cases left out and its reports rendered to match: merge and verify name the missing cases")
    func casesLeftOut() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("left-out-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let attest = try AttestationFixture.write(["NAT-MIX-001"], to: directory + "/attest.txt")
        let honest = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            [
                "run", "--target", "reference", "--certification", "native-client", "--quiet", "--attest", attest, "--reports",
                directory + "/honest",
            ])
        #expect(
            honest.status == 0 && honest.output.contains("PASSED BY THE SUITE, ATTESTED BY THE PARTNER: Native app as an OAuth client"),
            "\(honest.output)")
        // The forger's results: three cases gone, every derived field rendered again from what is left, with a
        // renderer that does not know the program's case list.
        let (catalog, suite) = try SuiteRun.load()
        let loaded = try ResultsDocument.load(run: directory + "/honest")
        var forged = try ResultsDocument.merge([loaded], suite: suite, catalog: catalog, asRecorded: true)
        let total = forged.results.count
        forged.results.removeLast(3)
        forged.programCases = [:]
        #expect(forged.programOutcomes.map(\.status) == [.attestedByPartner], "the old rule certifies it")
        let profiles = loaded.document.profiles.map(\.profile)
        let files = ReportSet(run: forged, profiles: profiles).render()
        try ReportFiles.save(files, into: directory + "/forged")
        let attestations = try AttestationLoader.load(path: attest, catalog: catalog)
        let archive = try EvidenceBundle.make(
            reports: files, caseFiles: suite.sources.map { (path: suite.digestPath(of: $0.path), bytes: $0.bytes) },
            catalog: try #require(catalog.file).bytes, attestations: attestations, run: forged)
        try Data(archive).write(to: URL(fileURLWithPath: directory + "/forged.tar"))

        let merged = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"), ["merge", "--reports", directory + "/merged", directory + "/forged"])
        #expect(merged.status == 2, "\(merged.output)")
        #expect(merged.output.contains("not-certified (3 of its \(total) cases missing ("), "\(merged.output)")
        let verify = try ProgramRun.run(BuiltProducts.path("appflip-conformance"), ["verify", directory + "/forged.tar"])
        #expect(verify.status == 1, "\(verify.output)")
        #expect(verify.output.contains("3 of its \(total) cases missing"), "\(verify.output)")
        #expect(verify.output.hasSuffix("NOT verified\n"), "\(verify.output)")
        // The honest run's own reports merge and certify, as they did.
        let whole = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"), ["merge", "--reports", directory + "/whole", directory + "/honest"])
        #expect(
            whole.status == 0 && whole.output.contains("\nPASSED BY THE SUITE, ATTESTED BY THE PARTNER: Native app as an OAuth client\n"),
            "\(whole.output)")
    }
}
