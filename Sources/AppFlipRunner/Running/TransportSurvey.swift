import AppFlipHTTP
import AppFlipModel

/// What TLS the run's https endpoints speak, for the report's provenance: for each https origin the selected cases
/// use, the version and cipher suite the server picks from a ClientHello offering what current clients offer
/// (TLS 1.3 and 1.2). The platform's HTTPS stack verifies the certificate chain on every request; it does not report
/// the negotiated parameters on Linux, so they are read from this one extra handshake per origin.
package enum TransportSurvey {
    /// One line per origin ("https://auth.example.com: TLS 1.3, TLS_AES_128_GCM_SHA256"), in endpoint order;
    /// empty when no selected case uses an https endpoint.
    package static func survey(_ cases: [ConformanceCase], targets: TargetUnderTest, timeout: Double) -> [String] {
        var origins: [HTTPOrigin] = []
        for endpoint in Endpoint.allCases where cases.contains(where: { $0.httpRequests.contains { $0.endpoint == endpoint } }) {
            guard let url = targets.endpoints[endpoint], let origin = HTTPOrigin.split(url)?.origin, origin.scheme == "https",
                  !origins.contains(origin) else { continue }
            origins.append(origin)
        }
        return origins.map { origin in
            let answer: String
            do throws(HTTPClient.Failure) {
                answer = try TLSHello.probe(host: origin.host, port: origin.port, offer: .modern, timeout: min(5, timeout)).summary
            } catch {
                answer = "no handshake: \(error.message)"
            }
            return "\(origin): \(answer)"
        }
    }
}
