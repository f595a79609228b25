import AppFlipSystem
import Foundation
import Testing

@testable import AppFlipHTTP

/// The ClientHello the suite sends and its reading of a server's first answer: byte-level, then against real TLS
/// servers (Python's ssl module, and openssl s_server limited to TLS 1.2).
@Suite("TLS hello probe")
struct TLSHelloTests {
    private let random = (0..<64).map { UInt8($0) }

    @Test("The ClientHello's record, handshake and extension lengths agree, for both offers")
    func lengthsAgree() {
        for offer in [TLSHello.Offer.modern, .legacyOnly] {
            let hello = TLSHello.clientHello(host: "auth.example.com", offer: offer, random: random)
            #expect(hello[0] == 0x16 && hello[1] == 3 && hello[2] == 1)
            #expect(Int(hello[3]) << 8 | Int(hello[4]) == hello.count - 5)
            #expect(hello[5] == 1)
            #expect(Int(hello[6]) << 16 | Int(hello[7]) << 8 | Int(hello[8]) == hello.count - 9)
            #expect(hello[9] == 3 && hello[10] == (offer == .modern ? 3 : 2))
        }
    }

    @Test("Only the modern offer carries supported_versions and a key share; SNI only for names, never for addresses")
    func extensions() {
        func contains(_ hello: [UInt8], _ bytes: [UInt8]) -> Bool {
            hello.indices.contains { hello[$0...].starts(with: bytes) }
        }
        let modern = TLSHello.clientHello(host: "auth.example.com", offer: .modern, random: random)
        let legacy = TLSHello.clientHello(host: "auth.example.com", offer: .legacyOnly, random: random)
        #expect(contains(modern, [0x00, 0x2B, 0x00, 0x05, 0x04, 0x03, 0x04, 0x03, 0x03]))
        #expect(!contains(legacy, [0x00, 0x2B, 0x00, 0x05]))
        #expect(!contains(legacy, [0x13, 0x01]))
        #expect(contains(modern, Array("auth.example.com".utf8)))
        #expect(!contains(TLSHello.clientHello(host: "127.0.0.1", offer: .modern, random: random), Array("127.0.0.1".utf8)))
        #expect(TLSHello.isAddress("::1") && TLSHello.isAddress("10.0.0.1") && !TLSHello.isAddress("10.example"))
    }

    private func serverHello(
        version: UInt16, cipher: UInt16, random: [UInt8] = Array(repeating: 7, count: 32),
        extensions: [UInt8]? = nil
    ) -> [UInt8] {
        TLSRecords.serverHello(version: version, cipher: cipher, random: random, extensions: extensions)
    }

    @Test("A TLS 1.2 ServerHello, a TLS 1.3 one (supported_versions), a HelloRetryRequest and an alert are told apart")
    func answers() {
        #expect(
            TLSHello.parse(serverHello(version: 0x0303, cipher: 0xC02F)) == .answer(.accepted(version: 0x0303, cipher: 0xC02F, helloRetry: false)))
        let thirteen = serverHello(version: 0x0303, cipher: 0x1301, extensions: [0x00, 0x2B, 0x00, 0x02, 0x03, 0x04])
        #expect(TLSHello.parse(thirteen) == .answer(.accepted(version: 0x0304, cipher: 0x1301, helloRetry: false)))
        let retry = serverHello(
            version: 0x0303, cipher: 0x1302, random: TLSHello.helloRetryRandom,
            extensions: [0x00, 0x2B, 0x00, 0x02, 0x03, 0x04])
        #expect(TLSHello.parse(retry) == .answer(.accepted(version: 0x0304, cipher: 0x1302, helloRetry: true)))
        #expect(TLSHello.parse([0x15, 3, 1, 0, 2, 2, 70]) == .answer(.refused("alert protocol_version (70)")))
        #expect(
            TLSHello.Answer.accepted(version: 0x0302, cipher: 0xC014, helloRetry: false).summary
                == "TLS 1.1, TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA")
    }

    @Test("A ServerHello split over records and reads is awaited; plain HTTP and other handshake messages are not TLS answers")
    func partialAndForeign() {
        let whole = serverHello(version: 0x0303, cipher: 0xC02F)
        #expect(TLSHello.parse(Array(whole.prefix(20))) == .needMore)
        #expect(TLSHello.parse([]) == .needMore)
        guard case .notTLS(let why) = TLSHello.parse(Array("HTTP/1.1 400 Bad Request\r\n".utf8)) else {
            Issue.record("HTTP taken for TLS")
            return
        }
        #expect(why.contains("\"HTTP/1.1 400"), "\(why)")
        var certificateFirst = whole
        certificateFirst[5] = 0x0B
        if case .notTLS = TLSHello.parse(certificateFirst) {} else { Issue.record("a Certificate taken for a ServerHello") }
    }

    @Test(
        "Against real servers: TLS 1.3 picked, TLS 1.0/1.1 refused; a legacy server picks TLS 1.1; TLS 1.2-only openssl picks 1.2",
        .enabled(if: TLSFixture.available))
    func realServers() throws {
        let modern = try TLSFixture()
        defer { modern.stop() }
        let picked = try TLSHello.probe(host: "127.0.0.1", port: modern.port, offer: .modern, mapping: .none)
        guard case .accepted(let version, _, _) = picked else {
            Issue.record("\(picked)")
            return
        }
        #expect(version == 0x0304)
        guard case .refused(let why) = try TLSHello.probe(host: "127.0.0.1", port: modern.port, offer: .legacyOnly, mapping: .none) else {
            Issue.record("TLS 1.1 accepted by a default server")
            return
        }
        #expect(why.contains("alert"), "\(why)")

        let legacy = try TLSFixture(legacy: true)
        defer { legacy.stop() }
        let old = try TLSHello.probe(host: "127.0.0.1", port: legacy.port, offer: .legacyOnly, mapping: .none)
        #expect(old.summary.hasPrefix("TLS 1.1, TLS_"), "\(old.summary)")

        let twelve = try OpenSSLServer(directory: modern.directory, arguments: ["-tls1_2"])
        defer { twelve.stop() }
        let answer = try TLSHello.probe(host: "127.0.0.1", port: twelve.port, offer: .modern, mapping: .none)
        #expect(answer.summary.hasPrefix("TLS 1.2, TLS_ECDHE_RSA_WITH_"), "\(answer.summary)")
        #expect(try TLSHello.probe(host: "127.0.0.1", port: twelve.port, offer: .legacyOnly, mapping: .none).summary.hasPrefix("refused"))
    }

    @Test("No server: the probe throws with the connection failure instead of inventing an answer")
    func noServer() {
        #expect(throws: HTTPClient.Failure.self) { try TLSHello.probe(host: "127.0.0.1", port: 1, offer: .modern, mapping: .none, timeout: 2) }
    }
}

/// `openssl s_server` on a free loopback port with the fixture's certificate: a TLS stack other than Python's front.
final class OpenSSLServer: @unchecked Sendable {
    let port: Int
    private let process = Process()

    init(directory: String, arguments: [String]) throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        port = listener.port
        listener.close()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments =
            [
                "s_server", "-accept", "127.0.0.1:\(port)", "-cert", directory + "/cert.pem", "-key", directory + "/key.pem",
                "-www", "-quiet",
            ] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Wait until it listens.
        for _ in 0..<100 {
            if (try? TLSHello.probe(host: "127.0.0.1", port: port, offer: .modern, mapping: .none, timeout: 1)) != nil { return }
            usleep(50_000)
        }
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// TLS records as a server sends them, for servers played by the tests.
enum TLSRecords {
    static func serverHello(
        version: UInt16, cipher: UInt16, random: [UInt8] = Array(repeating: 7, count: 32),
        extensions: [UInt8]? = nil
    ) -> [UInt8] {
        var body = [UInt8(version >> 8), UInt8(version & 0xFF)] + random + [0] + [UInt8(cipher >> 8), UInt8(cipher & 0xFF), 0]
        if let extensions { body += [UInt8(extensions.count >> 8), UInt8(extensions.count & 0xFF)] + extensions }
        let handshake = [0x02, 0, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
        return [0x16, 3, 3, UInt8(handshake.count >> 8), UInt8(handshake.count & 0xFF)] + handshake
    }

    static func alert(_ description: UInt8) -> [UInt8] { [0x15, 3, 1, 0, 2, 2, description] }
}
