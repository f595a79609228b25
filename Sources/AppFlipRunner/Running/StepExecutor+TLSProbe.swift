import AppFlipHTTP
import AppFlipModel
import Foundation

/// A transport probe step: the origin offered an old TLS version, and what it answered.
extension StepExecutor {
    /// A `tls: legacy` probe: a ClientHello offering only TLS 1.0 and 1.1 to the endpoint's host and port.
    func handshake(_ origin: HTTPOrigin, label: String, state: inout CaseState) -> Observation? {
        let offer = TLSHello.Offer.legacyOnly
        let answer: TLSHello.Answer
        let started = Date()
        do {
            answer = try TLSHello.probe(host: origin.host, port: origin.port, offer: offer, timeout: min(5, timeout))
        } catch {
            state.outcome.record(.target(label + error.message))
            return nil
        }
        var version: UInt16?
        if case .accepted(let picked, _, _) = answer { version = picked }
        let observation = Observation.handshake(TLSHandshake(offer: offer.description, version: version, answer: answer.summary))
        state.outcome.evidence.exchanges.append(
            Evidence.Exchange("\(label)TLS handshake with \(origin.host):\(origin.port): \(offer.description)\n  → \(observation.summary)",
                              sentAt: started, milliseconds: Int((Date().timeIntervalSince(started) * 1000).rounded())))
        return observation
    }
}
