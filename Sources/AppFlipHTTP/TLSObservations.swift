import AppFlipBase
import AppFlipTLS
import Foundation

/// What the run's own TLS connections found of each https origin (the first handshake's facts), for the report's
/// provenance: read from the connections the run made, not from a handshake of its own. For the whole process, which
/// is one run of the command line.
package enum TLSObservations {
    private static let facts = Locked<[String: TLSFacts]>([:])

    /// Keeps `found` for `origin` unless a handshake with it was recorded already.
    static func record(_ found: TLSFacts, for origin: HTTPOrigin) {
        facts.withLock { facts in
            if facts[origin.description] == nil { facts[origin.description] = found }
        }
    }

    /// What the first handshake with `origin` found, if there was one.
    package static func facts(for origin: HTTPOrigin) -> TLSFacts? {
        facts.withLock { $0[origin.description] }
    }
}
