import AppFlipEvidence
import AppFlipModel
import AppFlipReporting
import AppFlipRunner
import AppFlipTestSupport
import Foundation
import Testing

/// results.json: valid under the checked-in schema (for a fixture and for a real run), stable bytes, read back
/// losslessly, and refused clearly when it is not a document this suite reads.
@Suite("Results document")
struct ResultsDocumentTests {
    private let schema: JSONSchema

    init() throws {
        schema = try JSONSchema(contentsOf: PackageRoot.url.appendingPathComponent("Conformance/results.schema.json").path)
    }

    private func json(_ run: RunResult, reproducible: Bool = true) -> String {
        ResultsDocument(run: run, profiles: ["app-link"], reproducible: reproducible).render()
    }

    @Test("The fixture run's results.json matches the golden file and the schema, timed or not")
    func golden() throws {
        try Golden.check(json(Fixtures.mixedRun()), against: "results.json")
        #expect(schema.validate(Data(json(Fixtures.mixedRun()).utf8)).isEmpty)
        #expect(schema.validate(Data(json(Fixtures.mixedRun(), reproducible: false).utf8)) == [])
    }

    @Test("A real run of every native-client case against the reference writes a valid results.json")
    func realRun() throws {
        var targets = TargetUnderTest()
        targets.adapters[.nativeApp] = NativeClientTarget(executable: BuiltProducts.path("appflip-reference"), arguments: ["native-client"])
        let cases = try SuiteRun.load().1.cases.filter { $0.profile == .nativeClient }
        let run = try SuiteRun.run(targets, cases: cases)
        let text = ResultsDocument(run: run, profiles: ["native-client", "app-link"]).render()
        let problems = schema.validate(Data(text.utf8))
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        let document = try ResultsDocument.parse(Data(text.utf8))
        #expect(document.cases.count == cases.count)
        #expect(document.profiles.map(\.tested) == [true, false])
        #expect(document.requirements.count == run.catalog.requirements.count)
    }

    @Test("The schema refuses what a reader could not trust: a missing member, an unknown verdict, an extra member")
    func schemaRefuses() throws {
        let valid = try #require(JSONSerialization.jsonObject(with: Data(json(Fixtures.mixedRun()).utf8)) as? [String: Any])
        var missing = valid
        missing["cases"] = nil
        var unknownVerdict = valid
        unknownVerdict["outcome"] = (valid["outcome"] as? [String: Any]).map {
            var outcome = $0
            outcome["verdict"] = "passed"
            return outcome
        }
        var extra = valid
        extra["score"] = 100
        for (document, expected) in [
            (missing, "missing required member 'cases'"), (unknownVerdict, "$.outcome.verdict"),
            (extra, "unexpected member 'score'"),
        ] {
            let problems = schema.validate(try JSONSerialization.data(withJSONObject: document))
            #expect(problems.contains { $0.contains(expected) }, "\(problems)")
        }
    }

    @Test("What is written reads back equal; another schema or a newer version is refused in one line")
    func roundTrip() throws {
        let document = ResultsDocument(run: Fixtures.mixedRun(), profiles: ["app-link"])
        #expect(try ResultsDocument.parse(Data(document.render().utf8)) == document)
        var newer = document
        newer.version = ResultsDocument.currentVersion + 1
        #expect(throws: ResultsDocument.ReadFailure.self) { try ResultsDocument.parse(Data(newer.render().utf8)) }
        do {
            _ = try ResultsDocument.parse(Data("{\"schema\": \"appflip-conformance/results\"}".utf8))
            Issue.record("a document without its members was read")
        } catch {
            #expect(error.message.contains("missing 'version'") || error.message.contains("missing"), "\(error.message)")
        }
    }

    @Test("A version 1 document, whose exchanges were strings, still reads: each is an exchange with its transcript alone")
    func versionOneExchanges() throws {
        let document = ResultsDocument(run: Fixtures.mixedRun(), profiles: ["app-link"], reproducible: false)
        var text = document.render().replacingOccurrences(of: "\"version\" : 3\n}", with: "\"version\" : 1\n}")
        let object = #/\{\s*"milliseconds"[^\]]*\][^\]]*\],\s*"sent_at" : "[^"]*",\s*"transcript" : ("[^"]*")\s*\}/#
        #expect(text.contains(object), "the fixture has an exchange written as an object")
        text.replace(object) { $0.output.1 }
        let read = try ResultsDocument.parse(Data(text.utf8))
        #expect(read.version == 1)
        let exchanges = read.cases.flatMap(\.evidence.exchanges)
        #expect(
            exchanges == [
                ResultsDocument.ExchangeEntry(
                    transcript: "GET http://127.0.0.1:8080/.well-known/apple-app-site-association\n"
                        + "  → HTTP 200, 12 body bytes")
            ])
    }
}
