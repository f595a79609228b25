import AppFlipHTTP
import AppFlipModel
import AppFlipTLS

/// What TLS the run's https endpoints speak, for the report's provenance: for each https origin the selected cases
/// use, what the run's own first handshake with it agreed and what the server presented (version, cipher suite,
/// ALPN, the certificate's subject, issuer and expiry), read from that connection (`TLSObservations`). Where this
/// build does not speak TLS itself (the platform's HTTPS stack reports nothing of the kind), or no connection was
/// made, one handshake offering what current clients offer (TLS 1.3 and 1.2) says the version and cipher suite.
package enum TransportSurvey {
    /// One line per origin ("https://auth.example.com: TLS 1.3, TLS_AES_128_GCM_SHA256"), in endpoint order;
    /// empty when no selected case uses an https endpoint.
    package static func survey(_ cases: [ConformanceCase], targets: TargetUnderTest, timeout: Double) -> [String] {
        var origins: [HTTPOrigin] = []
        for endpoint in Endpoint.allCases where cases.contains(where: { $0.httpRequests.contains { $0.endpoint == endpoint } }) {
            guard let url = targets.endpoints[endpoint], let origin = HTTPOrigin.split(url)?.origin, origin.scheme == "https",
                !origins.contains(origin)
            else { continue }
            origins.append(origin)
        }
        return origins.map { origin in
            if let facts = targets.network.observations.facts(for: origin) {
                return "\(origin): \(facts.summary) (the chain and host name verified by OpenSSL)"
            }
            let answer: String
            do throws(HTTPClient.Failure) {
                answer = try TLSHello.probe(
                    host: origin.host, port: origin.port, offer: .modern, mapping: targets.network.hosts, timeout: min(5, timeout)
                ).summary
            } catch {
                answer = "no handshake: \(error.message)"
            }
            return "\(origin): \(answer)" + (TLSTrust.isAvailable ? "" : " (the chain verified by the platform's HTTPS stack)")
        }
    }
}
