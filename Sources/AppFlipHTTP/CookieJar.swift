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
        var parts = header.utf8.split(separator: 0x3B, omittingEmptySubsequences: false)[...]
        guard let pair = parts.popFirst(), let equals = pair.firstIndex(of: 0x3D) else { return nil }
        let name = Substring(pair[..<equals]).trimmingSpaces()
        guard !name.isEmpty else { return nil }
        let value = Substring(pair[pair.index(after: equals)...]).trimmingSpaces()
        var cookie = Cookie(name: name, value: value, domain: host, domainMatch: false, path: defaultPath, secure: false, expires: nil)
        // The last Max-Age wins over every Expires (§5.3 step 3), in whatever order they came.
        var maxAge: Int?
        var expiresPassed: Bool?
        for attribute in parts {
            let equals = attribute.firstIndex(of: 0x3D)
            let attributeName = Substring(attribute[..<(equals ?? attribute.endIndex)]).trimmingSpaces()
            let attributeValue = equals.map { Substring(attribute[attribute.index(after: $0)...]).trimmingSpaces() } ?? ""
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

    /// The `Cookie` header for a request for `target` at `origin`, or nil when no cookie applies.
    package func header(origin: HTTPOrigin, target: String, now: Double = Platform.monotonicSeconds()) -> String? {
        let matching: [Cookie] = cookies.withLock { cookies in
            guard !cookies.isEmpty else { return [] }
            let host = origin.host.lowercased()
            let path = Self.path(of: target)
            cookies.removeAll { ($0.expires ?? .infinity) <= now }
            return cookies.filter { cookie in
                (cookie.domainMatch && !Self.isIPAddress(host) ? host == cookie.domain || host.hasSuffix("." + cookie.domain) : host == cookie.domain)
                    && Self.pathMatches(path, cookie.path) && (!cookie.secure || origin.scheme == "https")
            }
        }
        guard !matching.isEmpty else { return nil }
        // Longer paths first (RFC 6265 §5.4).
        return matching.sorted { $0.path.utf8.count > $1.path.utf8.count }.map { $0.name + "=" + $0.value }.joined(separator: "; ")
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
