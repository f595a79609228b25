// Which local addresses a TCP port is listening on: read from /proc on Linux, without connecting (a probe
// connection could be taken by a naive listener for its callback). Unavailable elsewhere.
import Foundation

package enum ListeningSockets {
    /// The local addresses with a socket listening on `port` (`127.0.0.1`, `0.0.0.0`, `::1`, `::`, …), or nil where
    /// they cannot be read (macOS: no /proc). The kernel writes its socket tables a page at a time, and an entry can
    /// be skipped when other sockets open or close between two of those reads (a busy machine, a CI job running tests
    /// side by side): the tables are read three times at once and what any read saw is kept, so a listener that is
    /// there is not missed, and one closed before the first read is in none.
    package static func addresses(listeningOn port: Int) -> [String]? {
        #if os(Linux)
            var found: [String] = []
            for _ in 0..<3 {
                for address in read(listeningOn: port) where !found.contains(address) { found.append(address) }
            }
            return found
        #else
            return nil
        #endif
    }

    #if os(Linux)
        /// One read of /proc/net/tcp and /proc/net/tcp6.
        private static func read(listeningOn port: Int) -> [String] {
            var found: [String] = []
            for (file, isIPv6) in [("/proc/net/tcp", false), ("/proc/net/tcp6", true)] {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                for line in String(decoding: data, as: UTF8.self).split(separator: "\n").dropFirst() {
                    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                    // sl, local_address, rem_address, st (0A = LISTEN)
                    guard fields.count > 3, fields[3] == "0A" else { continue }
                    let local = fields[1].split(separator: ":")
                    guard local.count == 2, Int(local[1], radix: 16) == port else { continue }
                    found.append(isIPv6 ? ipv6(local[0]) : ipv4(local[0]))
                }
            }
            return found
        }
    #endif

    /// /proc/net/tcp writes an IPv4 address as one 32-bit word in host (little-endian) order.
    static func ipv4(_ hex: Substring) -> String {
        guard let word = UInt32(hex, radix: 16) else { return String(hex) }
        return [0, 8, 16, 24].map { String((word >> UInt32($0)) & 0xFF) }.joined(separator: ".")
    }

    /// /proc/net/tcp6 writes an IPv6 address as four 32-bit words, each in host order.
    static func ipv6(_ hex: Substring) -> String {
        let characters = Array(hex)
        guard characters.count == 32 else { return String(hex) }
        var bytes: [UInt8] = []
        for word in 0..<4 {
            let text = String(characters[(word * 8)..<(word * 8 + 8)])
            guard let value = UInt32(text, radix: 16) else { return String(hex) }
            bytes += [0, 8, 16, 24].map { UInt8((value >> UInt32($0)) & 0xFF) }
        }
        if bytes == [UInt8](repeating: 0, count: 15) + [1] { return "::1" }
        if bytes.allSatisfy({ $0 == 0 }) { return "::" }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return "::ffff:" + bytes[12...].map(String.init).joined(separator: ".")
        }
        return stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }.joined(separator: ":")
    }
}
