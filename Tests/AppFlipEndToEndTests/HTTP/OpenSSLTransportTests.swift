import AppFlipBase
import AppFlipHTTP
import AppFlipSystem
import AppFlipTLS
import Foundation
import Testing

/// https through the system's OpenSSL: a request goes byte for byte as over http (a GET with a body, an invalid
/// escape, 401 challenges, repeated headers in order, keep-alive with one handshake), and a certificate is verified
/// every time: another CA, an expired one, another host are each refused with the reason and the way out.
@Suite("https over OpenSSL", .serialized, .enabled(if: TLSTrust.isAvailable))
struct OpenSSLTransportTests {
    /// A server over TLS whose answers say what it received, with a certificate for `names` issued as `flaw` says, and
    /// a network that trusts its CA (when `trusted`).
    private static func server(
        names: [String] = ["127.0.0.1", "localhost"], flaw: CertificateAuthority.Flaw = .none,
        trusted: Bool = true
    ) throws -> (HTTPServer, Network) {
        let authority = try CertificateAuthority()
        let network = Network(trust: trusted ? TLSTrust.system.adding(pem: authority.pem) : .system)
        let server = try HTTPServer(tls: try authority.serverIdentity(for: names, flaw: flaw)) { request in
            if request.target == "/challenge" {
                return HTTPResponse(
                    status: 401,
                    headers: HTTPHeaders([
                        ("WWW-Authenticate", #"Bearer error="invalid_token""#),
                        ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2"),
                    ]), body: [])
            }
            return HTTPResponse(
                status: 200, headers: HTTPHeaders([("X-Seen", "\(request.method) \(request.target) \(request.body.count)")]),
                body: request.body)
        }
        server.start()
        return (server, network)
    }

    @Test("Requests go as written: a GET with a body, an invalid escape, a 401 challenge; repeated headers stay apart and in order; one handshake")
    func exact() throws {
        let (server, network) = try Self.server()
        defer { server.stop() }
        let client = try HTTPClient(origin: HTTPOrigin(scheme: "https", host: "127.0.0.1", port: server.port), network: network)
        defer { client.close() }
        let withBody = try client.send(
            HTTPRequest(
                method: "GET", target: "/token?x=%ZZ", headers: HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")]),
                body: Array("client_id=a".utf8)))
        #expect(withBody.status == 200 && withBody.headers["X-Seen"] == "GET /token?x=%ZZ 11", "\(withBody.headers)")
        let challenge = try client.send(HTTPRequest(method: "GET", target: "/challenge"))
        #expect(challenge.status == 401 && challenge.headers["WWW-Authenticate"] == #"Bearer error="invalid_token""#)
        #expect(challenge.headers.values("Set-Cookie") == ["a=1", "b=2"])
        for _ in 0..<5 { _ = try client.send(HTTPRequest(method: "GET", target: "/again")) }
        #expect(client.connectionsOpened == 1, "kept alive: one connection, one handshake")
        let facts = try #require(client.lastTLS)
        #expect(facts.version.hasPrefix("TLS 1.") && !facts.cipher.isEmpty && facts.alpn == "http/1.1", "\(facts.summary)")
        #expect(facts.issuer?.contains("AppFlip Conformance test CA") == true, "\(facts.summary)")
    }

    @Test(
        "A certificate is refused, with the reason and what was presented: another CA (untrusted), expired and another host (not valid here)",
        arguments: [
            (
                "another CA", CertificateAuthority.Flaw.untrustedIssuer, ["127.0.0.1"], "unable to get local issuer certificate",
                HTTPClient.Failure.Kind.untrusted
            ),
            ("expired", .expired, ["127.0.0.1"], "certificate has expired", .invalidCertificate),
            ("another host", .none, ["other.example"], "mismatch", .invalidCertificate),
        ])
    func refused(_ name: String, _ flaw: CertificateAuthority.Flaw, _ names: [String], _ reason: String, _ kind: HTTPClient.Failure.Kind) throws {
        let (server, network) = try Self.server(names: names, flaw: flaw)
        defer { server.stop() }
        let client = try HTTPClient(origin: HTTPOrigin(scheme: "https", host: "127.0.0.1", port: server.port), network: network)
        defer { client.close() }
        do {
            let response = try client.send(HTTPRequest(method: "GET", target: "/"))
            Issue.record("\(name): answered \(response.status)")
        } catch {
            #expect(error.kind == kind, "\(name): \(error.kind)")
            let said = kind == .untrusted ? "the certificate of 127.0.0.1 cannot be verified" : "the certificate of 127.0.0.1 is not valid for it"
            #expect(error.message.contains(said) && error.message.contains(reason), "\(name): \(error.message)")
            #expect(error.message.contains("(it presented CN=\(names[0])"), "the certificate presented is named: \(error.message)")
        }
    }

    @Test("--resolve points a name at an address; SNI and the certificate's check use the name")
    func resolve() throws {
        var (server, network) = try Self.server(names: ["auth.staging.example"])
        defer { server.stop() }
        network.hosts.add([HostMapping.Entry(host: "auth.staging.example", port: server.port, address: "127.0.0.1")])
        let client = try HTTPClient(origin: HTTPOrigin(scheme: "https", host: "auth.staging.example", port: server.port), network: network)
        defer { client.close() }
        let response = try client.send(HTTPRequest(method: "GET", target: "/mapped"))
        #expect(response.status == 200 && client.lastTLS?.subject?.contains("auth.staging.example") == true)
        #expect(HostMapping.Entry(parsing: "auth.example:443:127.0.0.1") == HostMapping.Entry(host: "auth.example", port: 443, address: "127.0.0.1"))
        #expect(network.hosts.destination(of: "AUTH.staging.example", port: server.port) == ("127.0.0.1", server.port))
        // Another run's network in the same process knows nothing of the mapping.
        #expect(HostMapping.none.destination(of: "auth.staging.example", port: server.port) == ("auth.staging.example", server.port))
        #expect(HostMapping.Entry(parsing: "h:443:[::1]")?.address == "::1")
        for bad in ["auth.example:443", "auth.example:0:127.0.0.1", ":443:1.2.3.4", "a:b:c"] {
            #expect(HostMapping.Entry(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test("Connections made while other runs' trusts are made beside them (a reference starting beside a run) all verify")
    func trustChangingUnderConnections() throws {
        let (server, network) = try Self.server()
        defer { server.stop() }
        let others = try (0..<4).map { _ in try CertificateAuthority().pem }
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 5) { worker in
            if worker == 4 {
                for round in 0..<60 {
                    let other = Network(trust: TLSTrust.system.adding(pem: others[round % others.count]))
                    _ = try? HTTPClient(origin: HTTPOrigin(scheme: "https", host: "127.0.0.1", port: server.port), network: other).send(
                        HTTPRequest(method: "GET", target: "/"))
                }
                return
            }
            for _ in 0..<40 {
                do {
                    let client = try HTTPClient(origin: HTTPOrigin(scheme: "https", host: "127.0.0.1", port: server.port), network: network)
                    _ = try client.send(HTTPRequest(method: "GET", target: "/"))
                    client.close()
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
    }
}
