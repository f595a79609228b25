/// Where a client may send requests: one scheme, host and port. A client never talks to any other origin.
package struct HTTPOrigin: Sendable, Hashable, CustomStringConvertible {
    package var scheme: String
    package var host: String
    package var port: Int

    package init(scheme: String, host: String, port: Int) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// Splits `http://host:port/path?query` into the origin and the request target (`/path?query`).
    /// Nil when the URL is not absolute http(s) or has userinfo.
    package static func split(_ url: String) -> (origin: HTTPOrigin, target: String)? {
        // The scheme compared without case on its bytes, and the delimiters found as octets (RFC 3986 §2.2): no
        // lower-cased copy of the whole URL, no Character walk.
        let scheme: String
        if Self.hasPrefix(url, "http://") { scheme = "http" } else if Self.hasPrefix(url, "https://") { scheme = "https" } else { return nil }
        let rest = url[url.utf8.index(url.startIndex, offsetBy: scheme.count + 3)...]
        let authorityEnd = rest.utf8.firstIndex { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        var host = Substring(authority)
        var port = scheme == "https" ? 443 : 80
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                guard let value = Int(after.dropFirst()), (1...65_535).contains(value) else { return nil }
                port = value
            } else if !after.isEmpty {
                return nil
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            guard let value = Int(authority[authority.index(after: colon)...]), (1...65_535).contains(value) else { return nil }
            port = value
        }
        guard !host.isEmpty else { return nil }
        let path = rest[authorityEnd...]
        var target = String(path[..<(path.utf8.firstIndex(of: 0x23) ?? path.endIndex)])
        if target.isEmpty || target.hasPrefix("?") { target = "/" + target }
        return (HTTPOrigin(scheme: scheme, host: String(host), port: port), target)
    }

    /// Whether `url` starts with the ASCII `prefix`, letters compared without case.
    private static func hasPrefix(_ url: String, _ prefix: String) -> Bool {
        var bytes = url.utf8.makeIterator()
        for wanted in prefix.utf8 {
            guard let byte = bytes.next() else { return false }
            let folded = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
            if folded != wanted { return false }
        }
        return true
    }

    /// The `Host` header value: the port only when it is not the scheme's default.
    package var hostHeader: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let isDefault = (scheme == "http" && port == 80) || (scheme == "https" && port == 443)
        return isDefault ? shownHost : "\(shownHost):\(port)"
    }

    package var description: String { "\(scheme)://\(hostHeader)" }
}
