import AppFlipHTTP
import AppFlipSystem
import Foundation
import Testing

/// A peer cannot hold the suite's own servers (the native-client profile's test authorization server): a
/// connection past the limit is answered 503 at once, and one that idles is closed.
@Suite("HTTP server capacity")
struct HTTPServerCapacityTests {
    @Test("Past the connection limit a connection gets 503 at once, never a stalled accept; an idle one is closed and counted")
    func capacity() throws {
        let server = try HTTPServer(capacity: HTTPServer.Capacity(maximumConnections: 2, idleTimeout: 3)) { _ in HTTPResponse(status: 200) }
        server.start()
        defer { server.stop() }
        // Two connections that never send a byte hold both places.
        let held = try (0..<2).map { _ in try TCPSocket.connect(host: "127.0.0.1", port: server.port, deadline: Platform.monotonicSeconds() + 2) }
        defer { held.forEach { $0.close() } }
        Thread.sleep(forTimeInterval: 0.1)
        let third = try TCPSocket.connect(host: "127.0.0.1", port: server.port, deadline: Platform.monotonicSeconds() + 2)
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
        let client = try HTTPClient(origin: try #require(HTTPOrigin.split("http://127.0.0.1:\(server.port)/")?.origin))
        defer { client.close() }
        #expect(try client.send(HTTPRequest(method: "GET", target: "/")).status == 200)
    }
}
