import AppFlipBase
import Foundation

/// Names pointed at other addresses for this run (`--resolve HOST:PORT:ADDRESS`, curl's form): a connection to
/// `HOST:PORT` goes to `ADDRESS`, while everything else (the Host header, SNI, the certificate's check) still uses
/// the name. Every connection a run opens (`TCPSocket.connect`) is given its run's mapping. The reference also moves a
/// port (its link host's 443 to the port its server listens on), as curl's `--connect-to` does. A value of one run:
/// two suites run in one process (the library product) never see each other's.
package struct HostMapping: Sendable, Hashable {
    /// One mapping.
    package struct Entry: Sendable, Hashable {
        package var host: String
        package var port: Int
        package var address: String
        /// The port to connect to instead of `port`, when it moves too.
        package var targetPort: Int?

        /// Reads `HOST:PORT:ADDRESS` (an IPv6 address may stand in brackets); nil when it is not of that form.
        package init?(parsing text: String) {
            let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, !parts[0].isEmpty, let port = Int(parts[1]), (1...65_535).contains(port), !parts[2].isEmpty else { return nil }
            var address = String(parts[2])
            if address.hasPrefix("["), address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
            self.init(host: String(parts[0]).lowercased(), port: port, address: address)
        }

        package init(host: String, port: Int, address: String, targetPort: Int? = nil) {
            self.host = host
            self.port = port
            self.address = address
            self.targetPort = targetPort
        }
    }

    /// The mappings in force, for the report; a later one for the same host and port is the one that counts.
    package private(set) var all: [Entry] = []

    package init(_ entries: [Entry] = []) {
        add(entries)
    }

    /// No name mapped: every connection goes where its name resolves.
    package static let none = HostMapping()

    /// Adds mappings (a later one for the same host and port wins).
    package mutating func add(_ more: [Entry]) {
        all = all.filter { entry in !more.contains { $0.host == entry.host && $0.port == entry.port } } + more
    }

    /// Where a connection to `host:port` goes: the mapped address and port, or the host and port themselves.
    package func destination(of host: String, port: Int) -> (host: String, port: Int) {
        guard !all.isEmpty else { return (host, port) }
        let lower = host.lowercased()
        guard let entry = all.last(where: { $0.host == lower && $0.port == port }) else { return (host, port) }
        return (entry.address, entry.targetPort ?? port)
    }
}
