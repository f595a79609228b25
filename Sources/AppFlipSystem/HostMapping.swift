import AppFlipBase
import Foundation

/// Names pointed at other addresses for this run (`--resolve HOST:PORT:ADDRESS`, curl's form): a connection to
/// `HOST:PORT` goes to `ADDRESS`, while everything else (the Host header, SNI, the certificate's check) still uses
/// the name. Every connection the suite opens (`TCPSocket.connect`) honours it. The reference also moves a port (its
/// link host's 443 to the port its server listens on), as curl's `--connect-to` does. For the whole process, which
/// is one run of the command line.
package enum HostMapping {
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

    private static let entries = Locked<[Entry]>([])

    /// Adds mappings for the rest of the process (a later one for the same host and port wins).
    package static func add(_ more: [Entry]) {
        entries.withLock { entries in entries = entries.filter { entry in !more.contains { $0.host == entry.host && $0.port == entry.port } } + more }
    }

    /// Where a connection to `host:port` goes: the mapped address and port, or the host and port themselves.
    package static func destination(of host: String, port: Int) -> (host: String, port: Int) {
        let lower = host.lowercased()
        guard let entry = entries.withLock({ $0.last { $0.host == lower && $0.port == port } }) else { return (host, port) }
        return (entry.address, entry.targetPort ?? port)
    }

    /// The mappings in force, for the report.
    package static var all: [Entry] { entries.withLock { $0 } }
}
