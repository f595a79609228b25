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
        let lower = url.lowercased()
        let scheme: String
        if lower.hasPrefix("http://") { scheme = "http" } else if lower.hasPrefix("https://") { scheme = "https" } else { return nil }
        let rest = url.dropFirst(scheme.count + 3)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
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
        var target = String(rest[authorityEnd...])
        if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
        if target.isEmpty || target.hasPrefix("?") { target = "/" + target }
        return (HTTPOrigin(scheme: scheme, host: String(host), port: port), target)
    }

    /// The `Host` header value: the port only when it is not the scheme's default.
    package var hostHeader: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let isDefault = (scheme == "http" && port == 80) || (scheme == "https" && port == 443)
        return isDefault ? shownHost : "\(shownHost):\(port)"
    }

    package var description: String { "\(scheme)://\(hostHeader)" }
}
