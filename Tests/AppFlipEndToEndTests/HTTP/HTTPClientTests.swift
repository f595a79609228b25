import AppFlipHTTP
import AppFlipTestSupport
import Foundation
import Testing

@Suite("HTTP client")
struct HTTPClientTests {
    private func client(_ server: RecordingServer, total: Double = 5) throws -> HTTPClient {
        try HTTPClient(
            origin: HTTPOrigin(scheme: "http", host: "127.0.0.1", port: server.port), network: .system,
            limits: HTTPLimits(maximumBodyBytes: 1024), timeouts: HTTPClient.Timeouts(connect: 2, total: total))
    }

    @Test("The request goes out byte for byte: invalid escapes, repeated and empty parameters, odd characters")
    func exactBytes() throws {
        let server = try RecordingServer { _ in RecordingServer.ok("fine") }
        defer { server.stop() }
        let target = "/authorize?client_id=a&client_id=a&state=&=&x=%ZZ&y=%2&z=%e9&redirect_uri=https%3A%2F%2Fh%2F..%2F&&u=a+b"
        let response = try client(server).send(HTTPRequest(method: "GET", target: target))
        #expect(response.status == 200)
        #expect(response.body == Array("fine".utf8))
        let sent = String(decoding: try #require(server.requests.first), as: UTF8.self)
        #expect(sent == "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
    }

    @Test("A body and headers go out as given, with Content-Length added")
    func body() throws {
        let server = try RecordingServer { _ in RecordingServer.ok("") }
        defer { server.stop() }
        let request = HTTPRequest(
            method: "POST", target: "/token", headers: HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")]),
            body: Array("grant_type=authorization_code&code=a%2Fb".utf8))
        _ = try client(server).send(request)
        let sent = String(decoding: try #require(server.requests.first), as: UTF8.self)
        #expect(
            sent.hasSuffix("Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 40\r\n\r\ngrant_type=authorization_code&code=a%2Fb"))
    }

    @Test("A redirect is the observation: it is never followed")
    func redirectsNotFollowed() throws {
        let server = try RecordingServer { _ in
            .bytes(Array("HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:1/elsewhere\r\nContent-Length: 0\r\n\r\n".utf8))
        }
        defer { server.stop() }
        let response = try client(server).send(HTTPRequest(method: "GET", target: "/authorize"))
        #expect(response.status == 302)
        #expect(response.headers["location"] == "http://127.0.0.1:1/elsewhere")
        #expect(server.requests.count == 1)
    }

    @Test("A kept-alive connection is reused across requests, and reopened when the server closed it")
    func reuse() throws {
        let server = try RecordingServer { request in
            String(decoding: request, as: UTF8.self).contains("/last")
                ? .bytes(Array("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx".utf8))
                : RecordingServer.ok("x")
        }
        defer { server.stop() }
        let client = try client(server)
        for path in ["/a", "/b", "/last", "/c"] { _ = try client.send(HTTPRequest(method: "GET", target: path)) }
        #expect(client.connectionsOpened == 2)
        #expect(server.requests.count == 4)
    }

    @Test("A status line gives its code and its reason as sent, spaces and all; HTTP/1.0 closes the connection")
    func statusLines() throws {
        for (line, status, reason, connections) in [
            ("HTTP/1.1 200 OK", 200, "OK", 1), ("HTTP/1.1 404 Not  Found ", 404, "Not  Found ", 1),
            ("HTTP/1.1 204", 204, "", 1), ("HTTP/1.0 200 OK", 200, "OK", 2),
            ("HTTP/1.1 599 é", 599, "é", 1),
        ] {
            let server = try RecordingServer { _ in
                .bytes(Array("\(line)\r\nContent-Length: 0\r\n\r\n".utf8))
            }
            defer { server.stop() }
            let client = try client(server)
            var response = HTTPResponse(status: 0)
            for path in ["/a", "/b"] { response = try client.send(HTTPRequest(method: "GET", target: path)) }
            #expect(response.status == status, "\(line)")
            #expect(response.reason == reason, "\(line)")
            #expect(client.connectionsOpened == connections, "\(line)")
        }
    }

    @Test("Connection is read as a list of options: close among them, in any case, ends the connection; other options do not")
    func connectionOptions() throws {
        for (value, closes) in [
            ("keep-alive, Close", true), ("Upgrade,close", true), (" CLOSE ", true), ("keep-alive", false),
            ("Keep-Alive, upgrade", false),
        ] {
            let server = try RecordingServer { _ in
                .bytes(Array("HTTP/1.1 200 OK\r\nConnection: \(value)\r\nContent-Length: 1\r\n\r\nx".utf8))
            }
            defer { server.stop() }
            let client = try client(server)
            for path in ["/a", "/b"] { _ = try client.send(HTTPRequest(method: "GET", target: path)) }
            #expect(client.connectionsOpened == (closes ? 2 : 1), "Connection: \(value)")
        }
    }

    @Test("Chunked bodies are decoded")
    func chunked() throws {
        let server = try RecordingServer { _ in
            .bytes(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5;ext=1\r\npedia\r\n0\r\nX-Trailer: 1\r\n\r\n".utf8))
        }
        defer { server.stop() }
        #expect(try client(server).send(HTTPRequest(method: "GET", target: "/")).body == Array("Wikipedia".utf8))
    }

    @Test("A head is read on bytes: LF alone ends a line, a lone CR stays in its value, values are trimmed, Latin-1 is kept")
    func headBytes() throws {
        let head: [UInt8] =
            Array("HTTP/1.1 200 OK\nX-A: \t v1 \t\r\nX-B: a\rb\r\nX-C: caf".utf8) + [0xE9]
            + Array("\r\nX-Token!#$%&'*+-.^_`|~: t\r\nContent-Length: 2\r\n\r\nok".utf8)
        let server = try RecordingServer { _ in .bytes(head) }
        defer { server.stop() }
        let response = try client(server).send(HTTPRequest(method: "GET", target: "/"))
        #expect(response.status == 200)
        #expect(response.headers["X-A"] == "v1")
        #expect(response.headers["X-B"] == "a\rb")
        #expect(response.headers["X-C"] == "caf\u{E9}")
        #expect(response.headers["X-Token!#$%&'*+-.^_`|~"] == "t")
        #expect(response.body == Array("ok".utf8))
    }

    struct Broken: Sendable, CustomTestStringConvertible {
        var name: String
        var reply: RecordingServer.Reply
        var message: String
        var testDescription: String { name }
    }

    static let broken: [Broken] = [
        Broken(name: "invalid status line", reply: .bytes(Array("HTTP/9 OK\r\n\r\n".utf8)), message: "invalid status line"),
        Broken(name: "a version with a combining mark", reply: .bytes(Array("HTTP/1.\u{301}1 200 OK\r\n\r\n".utf8)), message: "invalid status line"),
        Broken(name: "a version of two minor digits", reply: .bytes(Array("HTTP/1.10 200 OK\r\n\r\n".utf8)), message: "invalid status line"),
        Broken(name: "a status code of four digits", reply: .bytes(Array("HTTP/1.1 2000 OK\r\n\r\n".utf8)), message: "invalid status line"),
        Broken(name: "a status code with a sign", reply: .bytes(Array("HTTP/1.1 +20 OK\r\n\r\n".utf8)), message: "invalid status line"),
        Broken(name: "no space in the status line", reply: .bytes(Array("HTTP/1.1\r\n\r\n".utf8)), message: "invalid status line"),
        Broken(name: "not HTTP at all", reply: .bytes(Array("SSH-2.0-OpenSSH\r\n\r\n".utf8), close: true), message: "invalid status line"),
        Broken(name: "header without colon", reply: .bytes(Array("HTTP/1.1 200 OK\r\nbroken header\r\n\r\n".utf8)), message: "has no ':'"),
        Broken(
            name: "obsolete line folding", reply: .bytes(Array("HTTP/1.1 200 OK\r\nX-A: 1\r\n  folded\r\n\r\n".utf8)),
            message: "obsolete line folding in the header section: header line 2 (8 bytes) starts with white space"),
        Broken(
            name: "a header name with a space", reply: .bytes(Array("HTTP/1.1 200 OK\r\nBad Name: 1\r\n\r\n".utf8)),
            message: "header line 1 has an invalid name: byte 4 of the name (0x20, a space) is not a token character"),
        Broken(
            name: "a header name with a delimiter", reply: .bytes(Array("HTTP/1.1 200 OK\r\nX(a): 1\r\n\r\n".utf8)),
            message: "has an invalid name: byte 2 of the name (0x28, '(') is not a token character"),
        Broken(
            name: "conflicting lengths", reply: .bytes(Array("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab".utf8)),
            message: "conflicting Content-Length"),
        Broken(
            name: "Content-Length beside chunked (smuggling)",
            reply: .bytes(Array("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n".utf8)),
            message: "both Transfer-Encoding (chunked) and Content-Length"),
        Broken(
            name: "body over the limit", reply: .bytes(Array("HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n".utf8)), message: "the limit is 1024"),
        Broken(
            name: "bad chunk size", reply: .bytes(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".utf8)),
            message: "invalid chunk size"),
        Broken(
            name: "closed mid-body", reply: .bytes(Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".utf8), close: true),
            message: "closed after 3 of 10 body bytes"),
        Broken(name: "closed without answer", reply: .closeWithoutAnswer, message: "closed the connection without a response"),
        Broken(
            name: "a body that never ends", reply: .bytes(Array("HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\nabc".utf8)),
            message: "no complete response within 0.5 s"),
        Broken(
            name: "reset mid-response", reply: .reset(after: Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nabc".utf8)),
            message: "reset"),
        Broken(name: "no answer in time", reply: .stall(seconds: 40), message: "no complete response within 0.5 s"),
        Broken(
            name: "headers that never end (slowloris)",
            reply: .bytes(Array(("HTTP/1.1 200 OK\r\n" + String(repeating: "X-Padding: a\r\n", count: 5000)).utf8)),
            message: "the header section exceeds"),
    ]

    @Test("A broken response is a precise failure, never a crash or a hang", arguments: broken)
    func brokenResponses(_ broken: Broken) throws {
        let reply = broken.reply
        let server = try RecordingServer { _ in reply }
        defer { server.stop() }
        let client = try client(server, total: 0.5)
        let started = Date()
        do {
            let response = try client.send(HTTPRequest(method: "GET", target: "/"))
            Issue.record("got a response: \(response.status)")
        } catch {
            #expect(error.message.contains(broken.message), "\(error.message)")
        }
        #expect(Date().timeIntervalSince(started) < 20)  // bounded by the client's 0.5 s; a client that waited out a 40 s stall reaches this
    }

    @Test("A refused connection is a failure that says so")
    func refused() throws {
        let listener = try RecordingServer { _ in .closeWithoutAnswer }
        let port = listener.port
        listener.stop()
        let client = try HTTPClient(origin: HTTPOrigin(scheme: "http", host: "127.0.0.1", port: port), network: .system)
        #expect(throws: HTTPClient.Failure.self) { try client.send(HTTPRequest(method: "GET", target: "/")) }
    }

    @Test("URLs split into one origin and a request target; userinfo and other schemes are refused")
    func origins() {
        let split = HTTPOrigin.split("http://127.0.0.1:8080/a/b?x=%ZZ#frag")
        #expect(split?.origin == HTTPOrigin(scheme: "http", host: "127.0.0.1", port: 8080))
        #expect(split?.target == "/a/b?x=%ZZ")
        #expect(HTTPOrigin.split("http://[::1]/")?.origin.hostHeader == "[::1]")
        #expect(HTTPOrigin.split("https://example.com")?.target == "/")
        #expect(HTTPOrigin.split("http://user@evil.example/") == nil)
        #expect(HTTPOrigin.split("ftp://example.com/") == nil)
        #expect(HTTPOrigin.split("http://example.com:99999/") == nil)
        // The scheme in any case; a query or fragment right after the authority; a combining mark after a delimiter.
        #expect(HTTPOrigin.split("HtTpS://Example.com?q=1")?.origin == HTTPOrigin(scheme: "https", host: "Example.com", port: 443))
        #expect(HTTPOrigin.split("HtTpS://Example.com?q=1")?.target == "/?q=1")
        #expect(HTTPOrigin.split("http://h:81#top")?.target == "/")
        #expect(HTTPOrigin.split("http://h/\u{301}x?#\u{301}")?.target.unicodeScalars.elementsEqual("/\u{301}x?".unicodeScalars) == true)
        #expect(HTTPOrigin.split("http:/") == nil)
        #expect(HTTPOrigin.split("httpx://h/") == nil)
        // Read as octets: userinfo, brackets and the port's colon are found whatever follows them; a port is digits.
        #expect(HTTPOrigin.split("http://h@\u{301}x/") == nil)
        #expect(HTTPOrigin.split("http://[::1]:8443/p")?.origin == HTTPOrigin(scheme: "http", host: "::1", port: 8443))
        #expect(HTTPOrigin.split("http://[::1]x/") == nil)
        #expect(HTTPOrigin.split("http://[::1/") == nil)
        #expect(HTTPOrigin.split("http://h:00080/")?.origin.port == 80)
        #expect(HTTPOrigin.split("http://h:+80/") == nil)
        #expect(HTTPOrigin.split("http://h:/") == nil)
        #expect(HTTPOrigin.split("http://h:0/") == nil)
        #expect(HTTPOrigin.split("http://:80/") == nil)
        #expect(HTTPOrigin.split("http://h\u{E9}:81/\u{E9}?q#f")?.origin == HTTPOrigin(scheme: "http", host: "h\u{E9}", port: 81))
        #expect(HTTPOrigin.split("http://h\u{E9}:81/\u{E9}?q#f")?.target == "/\u{E9}?q")
    }
}
