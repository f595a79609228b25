import AppFlipHTTP
import Testing

@testable import AppFlipSystem

/// Reading which addresses a port listens on, as the loopback-listener check does, without connecting.
@Suite("Listening sockets")
struct ListeningSocketsTests {
    @Test("/proc/net addresses decode in host order: IPv4 words, IPv6 in four words")
    func decoding() {
        #expect(ListeningSockets.ipv4("0100007F") == "127.0.0.1")
        #expect(ListeningSockets.ipv4("00000000") == "0.0.0.0")
        #expect(ListeningSockets.ipv6("00000000000000000000000001000000") == "::1")
        #expect(ListeningSockets.ipv6("00000000000000000000000000000000") == "::")
        #expect(ListeningSockets.ipv6("0000000000000000FFFF00000100007F") == "::ffff:127.0.0.1")
    }

    @Test(
        "A server on loopback is seen there and nowhere else, and not once stopped", .enabled(if: ListeningSockets.addresses(listeningOn: 1) != nil))
    func liveServer() throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0) { _ in HTTPResponse(status: 200) }
        server.start()
        #expect(ListeningSockets.addresses(listeningOn: server.port) == ["127.0.0.1"])
        let open = try HTTPServer(host: "0.0.0.0", port: 0) { _ in HTTPResponse(status: 200) }
        open.start()
        #expect(ListeningSockets.addresses(listeningOn: open.port) == ["0.0.0.0"])
        open.stop()
        server.stop()
        #expect(ListeningSockets.addresses(listeningOn: server.port)?.isEmpty == true)
    }
}
