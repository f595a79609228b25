#if canImport(COpenSSL)
    import AppFlipTLS
    import Testing

    /// The client context is made once for the anchors as they stand; one made while another CA was being trusted (two
    /// runs in one process, as `swift test` runs them) is used once and not kept, or it would serve every later
    /// connection without that CA ("unable to get local issuer certificate" for the second run's server).
    @Suite("TLS trust")
    struct TLSTrustStateTests {
        @Test("A context made from fewer anchors than are trusted by the time it is kept is not kept; one made from all of them is")
        func staleContextNotKept() throws {
            let first = PEMCertificates.read(Array(try CertificateAuthority(name: "first").pem.utf8))
            let second = PEMCertificates.read(Array(try CertificateAuthority(name: "second").pem.utf8))
            var state = TLSTrust.State()
            state.add(first)
            let snapshot = state.anchors
            let made = try TLSTrust.ClientContext(anchors: snapshot)
            state.add(second)  // another run trusts its CA while the context is being made
            state.keep(made, madeFrom: snapshot.count)
            #expect(state.clientContext == nil, "a context without the second CA was kept")
            let current = try TLSTrust.ClientContext(anchors: state.anchors)
            state.keep(current, madeFrom: state.anchors.count)
            #expect(state.clientContext?.anchors == 2)
            // The same CA again changes nothing: the context stays.
            state.add(first)
            #expect(state.clientContext?.anchors == 2)
        }
    }
#endif
