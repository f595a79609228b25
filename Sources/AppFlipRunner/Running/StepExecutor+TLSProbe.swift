import AppFlipHTTP
import AppFlipModel
import AppFlipTLS
import Foundation

/// A transport probe step: the origin offered an old TLS version, and what it answered.
extension StepExecutor {
    /// A `tls: legacy` probe: a ClientHello offering only TLS 1.0 and 1.1 to the endpoint's host and port. The
    /// answer is waited for as long as any request's (`--timeout`): a server that takes the old versions slowly takes
    /// them all the same, and only silence to the end counts as a refusal.
    func handshake(_ origin: HTTPOrigin, label: String, state: inout CaseState) -> Observation? {
        let offer = TLSHello.Offer.legacyOnly
        let answer: TLSHello.Answer
        let started = Date()
        do {
            answer = try TLSHello.probe(host: origin.host, port: origin.port, offer: offer, mapping: targets.network.hosts, timeout: timeout)
        } catch {
            state.outcome.record(.target(label + error.message))
            return nil
        }
        var version: UInt16?
        if case .accepted(let picked, _, _) = answer { version = picked }
        let observation = Observation.handshake(TLSHandshake(offer: offer.description, version: version, answer: answer.summary))
        state.outcome.record(
            Evidence.Exchange(
                "\(label)TLS handshake with \(origin.host):\(origin.port): \(offer.description)\n  → \(observation.summary)",
                sentAt: started, milliseconds: Int((Date().timeIntervalSince(started) * 1000).rounded())))
        return observation
    }

    /// A `tls: certificate` probe: a whole handshake as a request's, its certificate verified for the host and the date
    /// (one that chains to a trusted root but is not valid here is the finding; one nobody the run trusts vouches for
    /// is the run's setup, an error that says how to trust a staging CA), then the chain the server sent followed to a
    /// root by itself, and the key exchange read.
    func certificate(_ origin: HTTPOrigin, label: String, state: inout CaseState) -> Observation? {
        let offer = "a whole handshake, the certificate verified for \(origin.host)"
        let started = Date()
        let finding: TLSHandshake.CertificateFinding
        var facts = TLSFacts()
        do {
            let inspected = try HTTPClient.inspectTLS(origin, network: targets.network, timeout: timeout)
            facts = inspected.facts
            finding = inspected.chainProblem.map { .incompleteChain($0) } ?? .valid
        } catch {
            guard error.kind == .invalidCertificate else {
                state.outcome.record(.target(label + error.message + (error.kind == .untrusted ? ". " + ReachabilityPreflight.wayOut : "")))
                return nil
            }
            finding = .invalid(error.message)
        }
        let version: UInt16? = facts.version.isEmpty ? nil : (facts.version == "TLS 1.3" ? 0x0304 : facts.version == "TLS 1.2" ? 0x0303 : 0x0302)
        let answer: String
        switch finding {
        case .invalid(let why): answer = why
        case .valid, .incompleteChain: answer = facts.summary
        }
        let observation = Observation.handshake(
            TLSHandshake(
                offer: offer, version: version, answer: answer, certificate: finding,
                cipher: facts.cipher.isEmpty ? nil : facts.cipher))
        state.outcome.record(
            Evidence.Exchange(
                "\(label)TLS handshake with \(origin.host):\(origin.port): \(offer)\n  → \(observation.summary)",
                sentAt: started, milliseconds: Int((Date().timeIntervalSince(started) * 1000).rounded())))
        return observation
    }
}
