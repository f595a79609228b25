import AppFlipBase
import AppFlipHTTP
import AppFlipTestSupport
import Foundation
import Testing

/// Long-lived keep-alive connections: the reader compacts its buffer as messages go by, and must never lose its
/// place when it does. A stall shows up as a per-request timeout (2 s here), never as a slow pass.
@Suite("Keep-alive connections")
struct KeepAliveTests {
    @Test("One kept-alive connection carries more than 1 MiB of requests and of responses, with heads of every size")
    func megabytesOverOneConnection() throws {
        // Head sizes vary so that head terminators land at every offset relative to the reader's compaction point.
        let server = try HTTPServer { request in
            let size = Int(request.headers["X-Size"] ?? "") ?? 0
            return HTTPResponse(
                status: 200,
                headers: HTTPHeaders([
                    ("X-Padding", String(repeating: "p", count: size % 997)),
                    ("Content-Type", "text/html"),
                ]),
                body: Array(repeating: UInt8(ascii: "b"), count: 2_000 + size))
        }
        server.start()
        defer { server.stop() }
        let client = try HTTPClient(
            origin: HTTPOrigin(scheme: "http", host: "127.0.0.1", port: server.port), network: .system,
            timeouts: HTTPClient.Timeouts(connect: 2, total: 2))
        var sent = 0
        var received = 0
        for index in 0..<600 {
            let size = (index * 131) % 2_048
            let body = Array(repeating: UInt8(ascii: "q"), count: 600 + size)
            let request = HTTPRequest(
                method: "POST", target: "/page/\(index)",
                headers: HTTPHeaders([("X-Size", String(size)), ("X-Head-Padding", String(repeating: "h", count: size % 509))]),
                body: body)
            sent += request.serialized(host: "127.0.0.1").count
            let response = try client.send(request)
            #expect(response.status == 200)
            #expect(response.body.count == 2_000 + size, "response \(index)")
            received += response.serialized().count
        }
        #expect(sent > 1 << 20)
        #expect(received > 1 << 20)
        #expect(client.connectionsOpened == 1)
    }

    @Test("A raw server's responses split across reads at odd offsets are all read on one connection")
    func fragmentedResponses() throws {
        let page = String(repeating: "<p>sign in</p>", count: 300)
        let server = try RecordingServer { _ in RecordingServer.ok(page, headers: "Content-Type: text/html\r\nX-Frame-Options: DENY\r\n") }
        defer { server.stop() }
        let client = try HTTPClient(
            origin: HTTPOrigin(scheme: "http", host: "127.0.0.1", port: server.port), network: .system,
            timeouts: HTTPClient.Timeouts(connect: 2, total: 2))
        for index in 0..<300 {
            let response = try client.send(HTTPRequest(method: "GET", target: "/authorize?n=\(index)"))
            #expect(response.body.count == page.utf8.count)
        }
        #expect(client.connectionsOpened == 1)
        #expect(server.connectionCount == 1)
    }

    @Test("A timeout on a reused connection says the request was sent and nothing came back, not 'connecting'")
    func timeoutNamesThePhase() throws {
        let count = Counter()
        let server = try RecordingServer { _ in count.next() == 0 ? RecordingServer.ok("first") : .stall(seconds: 1.5) }
        defer { server.stop() }
        let client = try HTTPClient(
            origin: HTTPOrigin(scheme: "http", host: "127.0.0.1", port: server.port), network: .system,
            timeouts: HTTPClient.Timeouts(connect: 2, total: 0.5))
        _ = try client.send(HTTPRequest(method: "GET", target: "/a"))
        do {
            _ = try client.send(HTTPRequest(method: "GET", target: "/b"))
            Issue.record("the stalled request got a response")
        } catch {
            #expect(error.message.contains("no complete response within 0.5 s"), "\(error.message)")
            #expect(error.message.contains("waiting for the response"), "\(error.message)")
            #expect(error.message.contains("reused kept-alive connection"), "\(error.message)")
            #expect(!error.message.contains("connecting"), "\(error.message)")
        }
    }

    @Test("A timeout in the middle of a body says it was reading the body, after which status line")
    func bodyTimeoutNamesThePhase() throws {
        let server = try RecordingServer { _ in .bytes(Array("HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nabc".utf8)) }
        defer { server.stop() }
        let client = try HTTPClient(
            origin: HTTPOrigin(scheme: "http", host: "127.0.0.1", port: server.port), network: .system,
            timeouts: HTTPClient.Timeouts(connect: 2, total: 0.4))
        #expect { try client.send(HTTPRequest(method: "GET", target: "/")) } throws: { error in
            let message = (error as? HTTPClient.Failure)?.message ?? ""
            return message.contains("reading the response body after \"HTTP/1.1 200 OK\"")
        }
    }

    @Test("A server that closes an idle kept-alive connection gets the request again on a fresh connection")
    func closedIdleConnectionIsRetried() throws {
        let count = Counter()
        let server = try RecordingServer { _ in count.next() == 1 ? .closeWithoutAnswer : RecordingServer.ok("fine") }
        defer { server.stop() }
        let client = try HTTPClient(
            origin: HTTPOrigin(scheme: "http", host: "127.0.0.1", port: server.port), network: .system,
            timeouts: HTTPClient.Timeouts(connect: 2, total: 2))
        _ = try client.send(HTTPRequest(method: "GET", target: "/a"))
        let second = try client.send(HTTPRequest(method: "GET", target: "/b"))
        #expect(second.body == Array("fine".utf8))
        #expect(client.connectionsOpened == 2)
    }
}

/// A thread-safe counter for scripted servers.
final class Counter: @unchecked Sendable {
    private let value = Locked(0)

    func next() -> Int {
        value.withLock { value in
            defer { value += 1 }
            return value
        }
    }
}
