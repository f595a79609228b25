#if canImport(COpenSSL)
    import AppFlipHTTP
    import AppFlipTLS
    import Testing

    /// What a run trusts is its own (`TLSTrust`, in its `Network`): two runs in one process (the library product, or
    /// `swift test`) never trust each other's CAs, and a trust given the same CA again is the same trust, with the same
    /// client context.
    @Suite("TLS trust")
    struct TLSTrustStateTests {
        @Test("A server's CA trusted by one run's network is not trusted by another's in the same process")
        func trustIsPerRun() throws {
            let authority = try CertificateAuthority(name: "one run's CA")
            let server = try HTTPServer(tls: try authority.serverIdentity(for: ["127.0.0.1"])) { _ in HTTPResponse(status: 200) }
            server.start()
            defer { server.stop() }
            let origin = HTTPOrigin(scheme: "https", host: "127.0.0.1", port: server.port)
            let trusting = try HTTPClient(origin: origin, network: Network(trust: TLSTrust.system.adding(pem: authority.pem)))
            defer { trusting.close() }
            #expect(try trusting.send(HTTPRequest(method: "GET", target: "/")).status == 200)
            let other = try HTTPClient(origin: origin, network: .system)
            defer { other.close() }
            #expect {
                try other.send(HTTPRequest(method: "GET", target: "/"))
            } throws: { error in
                (error as? HTTPClient.Failure)?.kind == .untrusted
            }
        }

        @Test("Adding a CA already trusted gives the same trust; another CA gives a new one, the old left as it was")
        func addingKeepsWhatItCan() throws {
            let first = try CertificateAuthority(name: "first").pem
            let second = try CertificateAuthority(name: "second").pem
            let one = TLSTrust.system.adding(pem: first)
            #expect(one.adding(pem: first) === one, "the same CA again keeps the trust (and its client context)")
            let two = one.adding(pem: second)
            #expect(two !== one)
            #expect(one.anchors.count == 1 && two.anchors.count == 2)
            #expect(TLSTrust.system.anchors.isEmpty, "the system's trust is never changed")
        }
    }
#endif
