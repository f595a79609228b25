import AppFlipHTTP
import AppFlipSystem
import AppFlipTLS
import Foundation
import Testing

/// A peer cannot hold the suite's own servers (the native-client profile's test authorization server, `appflip-reference
/// serve`): when every place is taken the longest-idle connection makes room, else a connection past the limit is
/// answered 503 at once; one that idles is closed.
@Suite("HTTP server capacity")
struct HTTPServerCapacityTests {
    @Test("Past the connection limit a connection gets 503 at once, never a stalled accept; an idle one is closed and counted")
    func capacity() throws {
        let server = try HTTPServer(capacity: HTTPServer.Capacity(maximumConnections: 2, idleTimeout: 3)) { _ in HTTPResponse(status: 200) }
        server.start()
        defer { server.stop() }
        // Two connections that never send a byte hold both places.
        let held = try (0..<2).map { _ in
            try TCPSocket.connect(host: "127.0.0.1", port: server.port, deadline: Platform.monotonicSeconds() + 2, mapping: .none)
        }
        defer { for connection in held { connection.close() } }
        Thread.sleep(forTimeInterval: 0.1)
        let third = try TCPSocket.connect(host: "127.0.0.1", port: server.port, deadline: Platform.monotonicSeconds() + 2, mapping: .none)
        defer { third.close() }
        var answer: [UInt8] = []
        while try third.read(appendingTo: &answer, waitFirst: true, deadline: Platform.monotonicSeconds() + 2) > 0 {}
        #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 503"), "\(String(decoding: answer, as: UTF8.self))")
        #expect(server.refusals.busy == 1)
        // The idle ones are closed by the server (a read sees the end) and counted; then the places are free again.
        for socket in held {
            var rest: [UInt8] = []
            #expect(try socket.read(appendingTo: &rest, waitFirst: true, deadline: Platform.monotonicSeconds() + 10) == 0)
        }
        #expect(server.refusals.idle == 2)
        let client = try HTTPClient(origin: try #require(HTTPOrigin.split("http://127.0.0.1:\(server.port)/")?.origin), network: .system)
        defer { client.close() }
        #expect(try client.send(HTTPRequest(method: "GET", target: "/")).status == 200)
    }

    /// Connections that hold every place without ever finishing a request (slowloris): one sends nothing, the
    /// others a head that never ends; over TLS, none completes its handshake.
    private func hold(_ count: Int, on server: HTTPServer) throws -> [TCPSocket] {
        try (0..<count).map { index in
            let socket = try TCPSocket.connect(host: "127.0.0.1", port: server.port, deadline: Platform.monotonicSeconds() + 2, mapping: .none)
            if index > 0, server.scheme == "http" {
                try socket.write(Array("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8), deadline: Platform.monotonicSeconds() + 2)
            }
            Thread.sleep(forTimeInterval: 0.05)
            return socket
        }
    }

    @Test("Connections held open on purpose lock no client out: the longest-waiting makes room, the others stay", arguments: ["http", "https"])
    func slowlorisMakesRoom(scheme: String) throws {
        let authority = try CertificateAuthority()
        if scheme == "https" { guard TLSTrust.isAvailable else { return } }
        let network = Network(trust: TLSTrust.system.adding(pem: authority.pem))
        // A long idle timeout: without making room, the client would be refused (https: closed at once) for all of it.
        let capacity = HTTPServer.Capacity(maximumConnections: 4, idleTimeout: 60)
        let identity = scheme == "https" ? try authority.serverIdentity(for: ["127.0.0.1"], flaw: .none) : nil
        let server = try HTTPServer(capacity: capacity, tls: identity) { _ in HTTPResponse(status: 200) }
        server.start()
        defer { server.stop() }
        let held = try hold(4, on: server)
        defer { for connection in held { connection.close() } }
        Thread.sleep(forTimeInterval: capacity.evictableAfter + 0.3)
        for attempt in 1...3 {
            let client = try HTTPClient(origin: HTTPOrigin(scheme: scheme, host: "127.0.0.1", port: server.port), network: network)
            defer { client.close() }
            #expect(try client.send(HTTPRequest(method: "GET", target: "/")).status == 200, "attempt \(attempt)")
            Thread.sleep(forTimeInterval: capacity.evictableAfter + 0.1)
        }
        #expect(server.refusals.evicted >= 1 && server.refusals.busy == 0, "\(server.refusals)")
        // The first held (the longest waiting) was closed to make room; the last one opened is still served.
        var rest: [UInt8] = []
        #expect(try held[0].read(appendingTo: &rest, waitFirst: true, deadline: Platform.monotonicSeconds() + 5) == 0)
        #expect(!held[3].isStale, "the newest held connection is still open")
    }

    @Test("A client between two requests keeps its connection: only one idle past evictableAfter makes room")
    func activeConnectionsStay() throws {
        let server = try HTTPServer(capacity: HTTPServer.Capacity(maximumConnections: 1, idleTimeout: 30, evictableAfter: 30)) { _ in
            HTTPResponse(status: 200)
        }
        server.start()
        defer { server.stop() }
        let client = try HTTPClient(origin: try #require(HTTPOrigin.split("http://127.0.0.1:\(server.port)/")?.origin), network: .system)
        defer { client.close() }
        #expect(try client.send(HTTPRequest(method: "GET", target: "/")).status == 200)
        // The only place is the client's keep-alive connection, idle for less than evictableAfter: a newcomer gets 503.
        let other = try TCPSocket.connect(host: "127.0.0.1", port: server.port, deadline: Platform.monotonicSeconds() + 2, mapping: .none)
        defer { other.close() }
        var answer: [UInt8] = []
        while try other.read(appendingTo: &answer, waitFirst: true, deadline: Platform.monotonicSeconds() + 5) > 0 {}
        #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 503"))
        #expect(try client.send(HTTPRequest(method: "GET", target: "/")).status == 200)
        #expect(server.refusals.evicted == 0 && server.refusals.busy == 1, "\(server.refusals)")
    }
}
