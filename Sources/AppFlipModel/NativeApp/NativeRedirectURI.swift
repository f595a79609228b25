import AppFlipBase

/// A native app's redirect URI, classified by the three forms RFC 8252 §7 allows: a private-use scheme, a claimed
/// https URI, or a loopback interface redirect. Read from the text as written; no platform URL parser involved.
package struct NativeRedirectURI: Sendable, Hashable {
    package enum Form: Sendable, Hashable {
        /// `com.example.app:/path` (RFC 8252 §7.1).
        case privateUseScheme(scheme: String, rest: String)
        /// `https://…` (RFC 8252 §7.2).
        case claimedHTTPS
        /// `http://host:port/path` with its host as written (`127.0.0.1`, `[::1]`, `localhost`, or another).
        case http(host: String, port: Int?, path: String)
        /// Not an absolute URI (no scheme).
        case relative
    }

    package let text: String
    package let form: Form
    /// After the first `#`, when there is one.
    package let fragment: Substring?

    package init(_ text: String) {
        self.text = text
        let parts = URLParts(text)
        fragment = parts.fragment
        let beforeFragment = text[..<(text.firstIndex(of: "#") ?? text.endIndex)]
        guard let colon = beforeFragment.firstIndex(of: ":"), Self.isScheme(beforeFragment[..<colon]) else {
            form = .relative
            return
        }
        let scheme = beforeFragment[..<colon].lowercased()
        let rest = String(beforeFragment[beforeFragment.index(after: colon)...])
        switch scheme {
        case "https":
            form = .claimedHTTPS
        case "http":
            form = Self.httpForm(rest)
        default:
            form = .privateUseScheme(scheme: String(beforeFragment[..<colon]), rest: rest)
        }
    }

    /// RFC 3986 §3.1: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.utf8.first, isASCIILetter(first) else { return false }
        return text.utf8.allSatisfy {
            isASCIILetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    private static func httpForm(_ rest: String) -> Form {
        guard rest.hasPrefix("//") else { return .http(host: "", port: nil, path: rest) }
        let afterSlashes = rest.dropFirst(2)
        let authorityEnd = afterSlashes.firstIndex { $0 == "/" || $0 == "?" } ?? afterSlashes.endIndex
        var authority = afterSlashes[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let path = String(afterSlashes[authorityEnd...])
        var host = authority
        var port: Int?
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[...close]
            let afterHost = authority[authority.index(after: close)...]
            if afterHost.hasPrefix(":") { port = Int(afterHost.dropFirst()) }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = Int(authority[authority.index(after: colon)...])
        }
        return .http(host: host.lowercased(), port: port, path: path)
    }

    /// The loopback IP literals RFC 8252 §7.3 and Google name.
    package static let loopbackLiterals: Set<String> = ["127.0.0.1", "[::1]"]

    /// Whether a redirect URI's host names this machine's loopback interface: `localhost`, `[::1]`, or any IPv4
    /// address of 127.0.0.0/8 written as four decimal octets. (Only 127.0.0.1 and [::1] are the literals Google
    /// accepts, NAT-REDIR-004; the others are still loopback, so the suite may contact them as a browser would.)
    package static func isLoopbackHost(_ host: String) -> Bool {
        if host == "localhost" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// Whether a local socket address (`127.0.0.1`, `0.0.0.0`, `::1`, …) is reachable only from this machine.
    package static func isLoopbackAddress(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }

    /// The URI without its port, when it is a loopback IP redirect: the authorization server must accept any port
    /// there (RFC 8252 §7.3), so two such URIs that differ only in the port name the same registration.
    package var withoutLoopbackPort: String? {
        guard case .http(let host, _, let path) = form, Self.loopbackLiterals.contains(host) else { return nil }
        return "http://\(host)\(path)"
    }
}
