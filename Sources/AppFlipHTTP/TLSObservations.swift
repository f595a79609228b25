import AppFlipTLS
import Foundation

/// What the run's own TLS connections found of each https origin (the first handshake's facts), for the report's
/// provenance: read from the connections the run made, not from a handshake of its own. For the whole process, which
/// is one run of the command line.
package enum TLSObservations {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var facts: [String: TLSFacts] = [:]

    /// Keeps `found` for `origin` unless a handshake with it was recorded already.
    static func record(_ found: TLSFacts, for origin: HTTPOrigin) {
        lock.withLock {
            if facts[origin.description] == nil { facts[origin.description] = found }
        }
    }

    /// What the first handshake with `origin` found, if there was one.
    package static func facts(for origin: HTTPOrigin) -> TLSFacts? {
        lock.withLock { facts[origin.description] }
    }
}
