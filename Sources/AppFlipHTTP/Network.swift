import AppFlipSystem
import AppFlipTLS

/// Where one run's connections go and what they trust: its names pointed at other addresses (`--resolve`, the
/// reference's link host) and its CAs (`--ca-file`, the reference's); and what its handshakes found. Made once when the run is set up and handed to
/// every client it makes, so two suites run in one process (the library product) never share either.
package struct Network: Sendable {
    package var hosts: HostMapping
    package var trust: TLSTrust
    /// What the run's connections found of each https origin, shared by every copy of the run's network.
    package let observations: TLSObservations

    package init(hosts: HostMapping = .none, trust: TLSTrust = .system) {
        self.hosts = hosts
        self.trust = trust
        observations = TLSObservations()
    }

    /// No name mapped, the system's store alone: what a process that is not a run uses (the reference's own clients,
    /// tools in the tests).
    package static let system = Network()
}
