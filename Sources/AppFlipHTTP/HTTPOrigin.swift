import AppFlipBase

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
        // Read as octets (RFC 3986 §2.2) in place: the scheme compared without case, the delimiters found as bytes (a
        // combining mark after one does not hide it), the port as digits only; no lower-cased copy, no Character walk.
        if let parts = url.utf8.withContiguousStorageIfAvailable(split(bytes:)) { return parts }
        return Array(url.utf8).withUnsafeBufferPointer(split(bytes:))
    }

    private static func split(bytes: UnsafeBufferPointer<UInt8>) -> (origin: HTTPOrigin, target: String)? {
        let scheme: String
        if bytes.hasASCIIPrefixIgnoringCase("http://") {
            scheme = "http"
        } else if bytes.hasASCIIPrefixIgnoringCase("https://") {
            scheme = "https"
        } else {
            return nil
        }
        let authorityStart = scheme.utf8.count + 3
        var authorityEnd = authorityStart
        while authorityEnd < bytes.count, bytes[authorityEnd] != 0x2F, bytes[authorityEnd] != 0x3F, bytes[authorityEnd] != 0x23 {
            authorityEnd += 1
        }
        let authority = bytes[authorityStart..<authorityEnd]
        guard !authority.isEmpty, !authority.contains(0x40) else { return nil }  // no userinfo
        var host = authority
        var port = scheme == "https" ? 443 : 80
        if authority.first == 0x5B {  // an IP literal, "[…]" and an optional port
            guard let close = authority.firstIndex(of: 0x5D) else { return nil }
            host = bytes[(authorityStart + 1)..<close]
            let after = bytes[(close + 1)..<authorityEnd]
            if after.first == 0x3A {
                guard let value = Self.port(after.dropFirst()) else { return nil }
                port = value
            } else if !after.isEmpty {
                return nil
            }
        } else if let colon = authority.lastIndex(of: 0x3A) {
            host = bytes[authorityStart..<colon]
            guard let value = Self.port(bytes[(colon + 1)..<authorityEnd]) else { return nil }
            port = value
        }
        guard !host.isEmpty else { return nil }
        let targetEnd = bytes[authorityEnd...].firstIndex(of: 0x23) ?? bytes.count
        let path = bytes[authorityEnd..<targetEnd]
        let target = path.first == 0x2F ? String(decoding: path, as: UTF8.self) : "/" + String(decoding: path, as: UTF8.self)
        return (HTTPOrigin(scheme: scheme, host: String(decoding: host, as: UTF8.self), port: port), target)
    }

    /// A port: ASCII digits only, 1 to 65535.
    private static func port(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for digit in digits {
            guard digit >= 0x30, digit <= 0x39 else { return nil }
            value = value * 10 + Int(digit - 0x30)
            if value > 65_535 { return nil }
        }
        return value >= 1 ? value : nil
    }

    /// The `Host` header value: the port only when it is not the scheme's default.
    package var hostHeader: String {
        // Appended piece by piece: every request and every referrer of a sign-in walk spells its origin.
        var header = host.utf8.contains(0x3A) ? "[" + host + "]" : host
        let isDefault = (scheme == "http" && port == 80) || (scheme == "https" && port == 443)
        if !isDefault {
            header += ":"
            header += String(port)
        }
        return header
    }

    package var description: String {
        var text = scheme
        text += "://"
        text += hostHeader
        return text
    }
}
