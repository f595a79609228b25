import AppFlipHTTP
import AppFlipModel
import AppFlipReferenceServer
import AppFlipRunner
import AppFlipTestSupport
import Foundation
import Testing

@Suite("Link handler over HTTP")
struct HTTPLinkHandlerTests {
    @Test("The reference handler served over HTTP passes every case")
    func reference() throws {
        let reference = ReferenceServer(
            configuration: ReferenceServerConfiguration(
                clientID: SuiteRun.configuration.clientID,
                clientSecret: "unused"))
        let server = try HTTPServer(handler: reference.handler)
        server.start()
        defer { server.stop() }
        let target = try #require(HTTPAdapterTarget(url: "http://127.0.0.1:\(server.port)\(ReferenceServer.linkHandlerPath)"))
        let run = try SuiteRun.run(target)
        #expect(run.exitStatus == .conformant)
        #expect(
            run.count(.pass) == run.results.count,
            "\(run.results.filter { $0.verdict != .pass }.map { "\($0.conformanceCase.id): \($0.message ?? "")" })")
    }

    @Test(
        "A non-200 answer or an answer that is not the contract's JSON is an error verdict",
        arguments: [
            (RecordingServer.Reply.bytes(Array("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 4\r\n\r\noops".utf8)), "answered HTTP 500"),
            (RecordingServer.ok("<html>not json</html>"), "not a JSON object"),
            (RecordingServer.ok(#"{"id":"someone-else","action":"decline"}"#), "not for the request sent"),
            (RecordingServer.Reply.closeWithoutAnswer, "without a response"),
        ])
    func badAnswers(_ reply: RecordingServer.Reply, _ message: String) throws {
        let server = try RecordingServer { _ in reply }
        defer { server.stop() }
        let target = try #require(HTTPAdapterTarget(url: "http://127.0.0.1:\(server.port)/handle"))
        let (_, suite) = try SuiteRun.load()
        let run = try SuiteRun.run(target, cases: Array(suite.cases.filter { $0.profile == .appLink }.prefix(2)), timeout: 2, jobs: 1)
        #expect(run.exitStatus == .inconclusive)
        for result in run.results {
            #expect(result.verdict == .error)
            #expect(result.message?.contains(message) == true, "\(result.message ?? "")")
        }
        let body = String(decoding: try #require(server.requests.first), as: UTF8.self)
        #expect(body.hasPrefix("POST /handle HTTP/1.1\r\n"))
        #expect(body.contains("Content-Type: application/json\r\n"))
        #expect(body.contains(#""scenario":"consent""#))
    }
}
