import AppFlipBase
import AppFlipTLS
import Foundation

/// What a run's own TLS connections found of each https origin (the first handshake's facts), for the report's
/// provenance: read from the connections the run made, not from a handshake of its own. One a run, in its `Network`.
package final class TLSObservations: Sendable {
    private let facts = Locked<[String: TLSFacts]>([:])

    package init() {}

    /// Keeps `found` for `origin` unless a handshake with it was recorded already.
    func record(_ found: TLSFacts, for origin: HTTPOrigin) {
        facts.withLock { facts in
            if facts[origin.description] == nil { facts[origin.description] = found }
        }
    }

    /// What the first handshake with `origin` found, if there was one.
    package func facts(for origin: HTTPOrigin) -> TLSFacts? {
        facts.withLock { $0[origin.description] }
    }
}
