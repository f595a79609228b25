import AppFlipBase
import AppFlipSystem
import Foundation

/// The cookies one simulated browser keeps (RFC 6265, the part a sign-in needs): set from `Set-Cookie`, sent back
/// to the hosts and paths they belong to, secure ones only over https, expired ones dropped. Bounded per host.
package final class CookieJar: Sendable {
    package struct Cookie: Sendable, Hashable {
        package var name: String
        package var value: String
        /// The host the cookie belongs to, lower-cased; `domainMatch` extends it to subdomains.
        package var domain: String
        package var domainMatch: Bool
        package var path: String
        package var secure: Bool
        /// Monotonic seconds after which it is gone; nil for a session cookie.
        package var expires: Double?
    }

    package static let maximumCookiesPerHost = 50
    package static let maximumCookieBytes = 4096

    private let cookies = Locked<[Cookie]>([])

    package init() {}

    /// Every cookie kept now.
    package var all: [Cookie] { cookies.withLock { $0 } }

    /// Takes the `Set-Cookie` headers of a response to a request for `target` (as sent: path and query) at `origin`.
    package func store(_ setCookies: [String], origin: HTTPOrigin, target: String, now: Double = Platform.monotonicSeconds()) {
        guard !setCookies.isEmpty else { return }
        let host = origin.host.lowercased()
        let defaultPath = Self.defaultPath(Self.path(of: target))
        for header in setCookies where header.utf8.count <= Self.maximumCookieBytes {
            guard let (cookie, delete) = Self.parse(header, host: host, defaultPath: defaultPath, now: now) else { continue }
            cookies.withLock { cookies in
                cookies.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
                if !delete, cookies.count(where: { $0.domain == cookie.domain }) < Self.maximumCookiesPerHost { cookies.append(cookie) }
            }
        }
    }

    /// One `Set-Cookie` value (RFC 6265 §5.2), read on its bytes: the cookie, and whether it deletes the one it
    /// matches (it has expired already). Nil when it has no name or names a domain the responding host may not set.
    static func parse(_ header: String, host: String, defaultPath: String, now: Double) -> (Cookie, delete: Bool)? {
        var header = header
        return header.withUTF8 { parse(bytes: $0, host: host, defaultPath: defaultPath, now: now) }
    }

    /// `parse` on the header's bytes: split at each `;` and each piece at its first `=` where the bytes are, and only
    /// the names and values made strings (each cookie of a sign-in walk is read here).
    private static func parse(bytes: UnsafeBufferPointer<UInt8>, host: String, defaultPath: String, now: Double) -> (Cookie, delete: Bool)? {
        var start = 0
        /// The next piece, up to its `;` or the end: its name and value (nil without `=`), each trimmed.
        func next() -> (name: String, value: String?)? {
            guard start <= bytes.count else { return nil }
            let end = bytes[start...].firstIndex(of: 0x3B) ?? bytes.count
            defer { start = end + 1 }
            guard let equals = bytes[start..<end].firstIndex(of: 0x3D) else { return (trimmed(bytes, start..<end), nil) }
            return (trimmed(bytes, start..<equals), trimmed(bytes, (equals + 1)..<end))
        }
        guard let (name, pairValue) = next(), let value = pairValue, !name.isEmpty else { return nil }
        var cookie = Cookie(name: name, value: value, domain: host, domainMatch: false, path: defaultPath, secure: false, expires: nil)
        // The last Max-Age wins over every Expires (§5.3 step 3), in whatever order they came.
        var maxAge: Int?
        var expiresPassed: Bool?
        while let (attributeName, value) = next() {
            let attributeValue = value ?? ""
            let hasValue = !attributeValue.isEmpty
            switch attributeName.utf8.count {
            case 4 where hasValue && attributeName.utf8.hasASCIIPrefixIgnoringCase("path") && attributeValue.utf8.first == 0x2F:
                cookie.path = attributeValue
            case 6 where hasValue && attributeName.utf8.hasASCIIPrefixIgnoringCase("domain"):
                var domain = attributeValue.lowercased()
                if domain.utf8.first == 0x2E { domain.removeFirst() }
                // A cookie for a host that is neither the responding one nor a parent of it is ignored whole (§5.3
                // step 6): it neither sets nor deletes anything. An IP address has no parent (§5.1.3: only a host
                // name domain-matches by suffix): its cookies go to that exact address alone.
                if Self.isIPAddress(host) {
                    guard host == domain else { return nil }
                    continue
                }
                guard host == domain || host.hasSuffix("." + domain) else { return nil }
                cookie.domain = domain
                cookie.domainMatch = true
            case 7 where hasValue && attributeName.utf8.hasASCIIPrefixIgnoringCase("max-age"):
                if let seconds = Int(attributeValue) { maxAge = seconds }
            case 7 where hasValue && attributeName.utf8.hasASCIIPrefixIgnoringCase("expires"):
                if let date = CookieDate.parse(attributeValue) { expiresPassed = date.timeIntervalSinceNow <= 0 }
            case 6 where attributeName.utf8.hasASCIIPrefixIgnoringCase("secure"):
                cookie.secure = true
            default:
                continue
            }
        }
        var delete = false
        if let maxAge {
            if maxAge <= 0 { delete = true } else { cookie.expires = now + Double(maxAge) }
        } else if expiresPassed == true {
            delete = true
        }
        return (cookie, delete)
    }

    /// The text of `range`, without the leading and trailing spaces `trimmingSpaces` drops: ASCII ones dropped as bytes,
    /// and the piece read as a string only when a byte outside ASCII is left at an end.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        var (start, end) = (range.lowerBound, range.upperBound)
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while start < end, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        guard start == end || (bytes[start] < 0x80 && bytes[end - 1] < 0x80) else {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self).trimmingSpaces()
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// The `Cookie` header for a request for `target` at `origin`, or nil when no cookie applies.
    package func header(origin: HTTPOrigin, target: String, now: Double = Platform.monotonicSeconds()) -> String? {
        let matching: [Cookie] = cookies.withLock { cookies in
            guard !cookies.isEmpty else { return [] }
            let host = origin.host.lowercased()
            let path = Self.path(of: target)
            if cookies.contains(where: { ($0.expires ?? .infinity) <= now }) { cookies.removeAll { ($0.expires ?? .infinity) <= now } }
            // An IP address matches no domain by suffix (asked once, and only when a cookie has a Domain).
            let hostIsAddress = cookies.contains(where: \.domainMatch) && Self.isIPAddress(host)
            return cookies.filter { cookie in
                (cookie.domainMatch && !hostIsAddress ? host == cookie.domain || host.hasSuffix("." + cookie.domain) : host == cookie.domain)
                    && Self.pathMatches(path, cookie.path) && (!cookie.secure || origin.scheme == "https")
            }
        }
        guard let first = matching.first else { return nil }
        guard matching.count > 1 else { return first.name + "=" + first.value }
        // Longer paths first (RFC 6265 §5.4).
        var header = ""
        for cookie in matching.sorted(by: { $0.path.utf8.count > $1.path.utf8.count }) {
            if !header.isEmpty { header += "; " }
            header += cookie.name
            header += "="
            header += cookie.value
        }
        return header
    }

    /// Whether `host` is an IP address (v4 dotted, or v6 in brackets or bare), which RFC 6265 §5.1.3 never
    /// domain-matches by suffix.
    static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") || host.hasPrefix("[") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.count <= 4 && parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }
    }

    /// A request target's path: up to its query.
    static func path(of target: String) -> Substring {
        target.utf8.firstIndex(of: 0x3F).map { target[..<$0] } ?? target[...]
    }

    static func defaultPath(_ requestPath: Substring) -> String {
        guard requestPath.utf8.first == 0x2F, let last = requestPath.utf8.lastIndex(of: 0x2F), last != requestPath.startIndex else { return "/" }
        return String(requestPath[..<last])
    }

    static func pathMatches(_ requestPath: Substring, _ cookiePath: String) -> Bool {
        let request = requestPath.isEmpty ? "/" : requestPath
        if request == cookiePath { return true }
        guard request.utf8.starts(with: cookiePath.utf8) else { return false }
        return cookiePath.utf8.last == 0x2F || request.utf8.dropFirst(cookiePath.utf8.count).first == 0x2F
    }
}
