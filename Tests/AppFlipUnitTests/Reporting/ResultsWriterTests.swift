import AppFlipEvidence
import AppFlipModel
import AppFlipReporting
import AppFlipTestSupport
import Foundation
import Testing

/// results.json is written member by member (no `JSONEncoder`, no document in memory): what it writes must be the
/// bytes `JSONEncoder` wrote before (pretty, keys sorted, snake_case, slashes as they are), for every member, optional
/// or not; the streamed writer must give the same bytes as the document; and a write error must reach the caller.
@Suite("results.json writer")
struct ResultsWriterTests {
    /// What results.json was before it was written by hand: the encoder is the oracle.
    private func encoded(_ document: ResultsDocument) throws -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }

    /// A document with every optional member set, times that print in exponent form, and text that needs escaping.
    private func fullDocument() throws -> ResultsDocument {
        var document = ResultsDocument(run: Fixtures.mixedRun(), profiles: ["app-link", "token"], reproducible: false)
        let baseline = #"{"path": "ci/baseline.txt", "entries": 2, "known": 1, "problems": ["expired on 2026-01-01"], "unexercised": []}"#
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        document.outcome.baseline = try decoder.decode(ResultsDocument.BaselineEntry.self, from: Data(baseline.utf8))
        document.outcome.configurationProblems = ["no \"client_secret\"\tconfigured\n"]
        document.run.certification = true
        document.run.samples = 7
        document.run.shard = "2/3"
        document.run.filter = "app-link/**"
        document.run.handlerStartup = "2 ms"
        document.run.arguments = ["--seed", "18446744073709551615", "--", "a/b"]
        document.run.seed = .max
        document.run.durationSeconds = 1e21
        document.cases[0].knownFailure = ["requirement AF-LINK-005 until 2027-01-01"]
        document.cases[0].configurationProblem = "a \u{0} b \u{1F} c \u{7F} d \u{2028} e / f \\ g"
        document.cases[0].suiteFault = "out of descriptors"
        document.cases[1].notJudged = "not judged: the redirect never reached the app"
        document.cases[2].conditionUnmet = true
        document.cases[3].formerly = ["app-link/old/name", "app-link/older/name"]
        document.cases[0].evidence.exchanges = [
            ResultsDocument.ExchangeEntry(transcript: "GET /authorize?x=1 → 302"),
            ResultsDocument.ExchangeEntry(
                transcript: "POST /token → 200 {\"a\":1}", sentAt: "2026-11-25T20:21:16.123Z", milliseconds: 12,
                requestHeaders: [ResultsDocument.HeaderEntry(name: "Host", value: "127.0.0.1:8080")],
                responseHeaders: [ResultsDocument.HeaderEntry(name: "Set-Cookie", value: "s=\"‹redacted›\"; Path=/")]),
        ]
        for (index, seconds) in [0.0123, 1.2e-05, Double.leastNonzeroMagnitude, 12.5, 0.1 + 0.2].enumerated() {
            document.cases[index].durationSeconds = seconds
        }
        return document
    }

    @Test("Every member, set or absent, is written as JSONEncoder wrote it, byte for byte")
    func sameBytesAsTheEncoder() throws {
        for document in [
            ResultsDocument(run: Fixtures.mixedRun(), profiles: ["app-link"], reproducible: true),
            ResultsDocument(run: Fixtures.mixedRun(), profiles: ["app-link"], reproducible: false),
            try fullDocument(),
        ] {
            let written = document.render()
            #expect(written == (try encoded(document)))
            #expect(try ResultsDocument.parse(Data(written.utf8)) == document)
        }
    }

    @Test("A changed member changes the bytes: the comparison above is not vacuous")
    func comparisonCanFail() throws {
        var document = try fullDocument()
        let before = document.render()
        document.cases[1].checks[0].observed = "something else"
        #expect(document.render() != before)
        #expect(document.render() == (try encoded(document)))
    }

    @Test("Streamed to a file in 64 KiB pieces, a run of 3,000 cases gives the document's bytes")
    func streamedEqualsDocument() throws {
        var run = Fixtures.mixedRun()
        let one = run.results
        run.results = (0..<600).flatMap { round in
            one.map { result in
                var copy = result
                copy.conformanceCase.id += "/\(round)"
                return copy
            }
        }
        let path = NSTemporaryDirectory() + "results-writer-\(UInt64.random(in: .min ... .max)).json"
        defer { unlink(path) }
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        try #require(fd >= 0)
        let sink = ReportSink(fd: fd, path: path)
        ResultsDocument.write(run: run, profiles: ["app-link"], reproducible: false, into: sink)
        try sink.finish()
        close(fd)
        let streamed = try String(contentsOfFile: path, encoding: .utf8)
        let document = ResultsDocument(run: run, profiles: ["app-link"], reproducible: false)
        #expect(streamed.utf8.count > 1 << 20)
        #expect(streamed == document.render())
        #expect(streamed == (try encoded(document)))
    }

    @Test("A write that fails (a full disk) is the sink's error, naming the file")
    func fullDisk() throws {
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0, "/dev/full is not available")
        defer { close(fd) }
        let sink = ReportSink(fd: fd, path: "reports/results.json")
        ResultsDocument.write(run: Fixtures.mixedRun(), profiles: ["app-link"], reproducible: true, into: sink)
        #expect(throws: ReportFiles.Failure.self) { try sink.finish() }
        do {
            try sink.finish()
        } catch {
            #expect(error.message.hasPrefix("cannot write reports/results.json:"), "\(error.message)")
        }
    }
}
