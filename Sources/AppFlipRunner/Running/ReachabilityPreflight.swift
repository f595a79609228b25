import AppFlipBase
import AppFlipHTTP
import AppFlipModel
import AppFlipSystem
import Foundation

/// Before the cases run, one connection to each origin the selected cases will request (the configured endpoints,
/// nowhere else), with the TLS handshake for https (the certificate verified as every request's is). An origin that
/// cannot be used (no DNS answer, refused, no answer in time, a certificate that cannot be verified) would turn every
/// case that needs it into the same error; instead those cases are not sent, and the run says once which origin
/// failed and why (for a certificate: OpenSSL's reason and what the server presented; how to trust a staging CA only
/// when no trusted root vouches for it: one that is expired or for another host is the server's to mend, and its
/// `tls: certificate` case fails for it).
enum ReachabilityPreflight {
    /// The origins the case's HTTP steps request, as configured. A transport probe (plain http on the TLS port, an
    /// old TLS version) is left out: whether that variant connects is what it judges, and it says so itself.
    static func origins(of conformanceCase: ConformanceCase, in targets: TargetUnderTest) -> [HTTPOrigin] {
        conformanceCase.steps.compactMap { step -> HTTPOrigin? in
            guard case .http(let request) = step.action, request.transportProbe == nil,
                let url = targets.endpoints[request.endpoint]
            else { return nil }
            return HTTPOrigin.split(url)?.0
        }
    }

    /// How to trust a staging CA, said with a certificate the run cannot verify.
    static let wayOut =
        "To trust a staging CA, give its certificate with --ca-file PATH (ca_file: in the configuration, "
        + "APPFLIP_CA_FILE for the library's environment target)"

    /// For each unreachable origin (its description), why; empty when every origin answered.
    static func unreachable(_ cases: [ConformanceCase], targets: TargetUnderTest, timeout: Double) -> [String: String] {
        var seen = Set<HTTPOrigin>()
        let origins = cases.flatMap { Self.origins(of: $0, in: targets) }.filter { seen.insert($0).inserted }
        let found = Locked<[String: String]>([:])
        DispatchQueue.concurrentPerform(iterations: origins.count) { index in
            let origin = origins[index]
            do throws(HTTPClient.Failure) {
                _ = try HTTPClient.handshake(origin, network: targets.network, timeout: min(5, timeout))
            } catch {
                let wayOut = error.kind == .untrusted ? ". " + Self.wayOut : ""
                found.withLock { $0[origin.description] = error.message + wayOut }
            }
        }
        return found.withLock { $0 }
    }
}
