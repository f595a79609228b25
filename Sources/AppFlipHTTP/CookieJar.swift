import AppFlipSystem
import Foundation

/// The cookies one simulated browser keeps (RFC 6265, the part a sign-in needs): set from `Set-Cookie`, sent back
/// to the hosts and paths they belong to, secure ones only over https, expired ones dropped. Bounded per host.
package final class CookieJar: @unchecked Sendable {
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

    private let lock = NSLock()
    private var cookies: [Cookie] = []

    package init() {}

    /// Every cookie kept now.
    package var all: [Cookie] { lock.withLock { cookies } }

    /// Takes the `Set-Cookie` headers of a response to a request for `url`.
    package func store(_ setCookies: [String], from url: String, now: Double = Platform.monotonicSeconds()) {
        guard let (origin, target) = HTTPOrigin.split(url) else { return }
        let host = origin.host.lowercased()
        let requestPath = String(target.prefix { $0 != "?" })
        for header in setCookies where header.utf8.count <= Self.maximumCookieBytes {
            var parts = header.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
            guard !parts.isEmpty, let equals = parts[0].firstIndex(of: "=") else { continue }
            let name = String(parts[0][..<equals]).trimmingWhitespace()
            let value = String(parts[0][parts[0].index(after: equals)...]).trimmingWhitespace()
            guard !name.isEmpty else { continue }
            parts.removeFirst()
            var cookie = Cookie(name: name, value: value, domain: host, domainMatch: false, path: Self.defaultPath(requestPath),
                                secure: false, expires: nil)
            var delete = false
            for attribute in parts {
                let pieces = attribute.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace() }
                switch pieces[0].lowercased() {
                case "path" where pieces.count == 2 && pieces[1].hasPrefix("/"):
                    cookie.path = pieces[1]
                case "domain" where pieces.count == 2:
                    var domain = pieces[1].lowercased()
                    if domain.hasPrefix(".") { domain.removeFirst() }
                    // A cookie may only be set for the responding host or a parent of it.
                    guard host == domain || host.hasSuffix("." + domain) else { delete = true; continue }
                    cookie.domain = domain
                    cookie.domainMatch = true
                case "max-age" where pieces.count == 2:
                    if let seconds = Int(pieces[1]) {
                        if seconds <= 0 { delete = true } else { cookie.expires = now + Double(seconds) }
                    }
                case "expires" where pieces.count == 2 && cookie.expires == nil:
                    if let date = Self.httpDate(pieces[1]), date.timeIntervalSinceNow <= 0 { delete = true }
                case "secure":
                    cookie.secure = true
                default:
                    continue
                }
            }
            lock.withLock {
                cookies.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
                if !delete, cookies.filter({ $0.domain == cookie.domain }).count < Self.maximumCookiesPerHost { cookies.append(cookie) }
            }
        }
    }

    /// The `Cookie` header for a request to `url`, or nil when no cookie applies.
    package func header(for url: String, now: Double = Platform.monotonicSeconds()) -> String? {
        guard let (origin, target) = HTTPOrigin.split(url) else { return nil }
        let host = origin.host.lowercased()
        let path = String(target.prefix { $0 != "?" })
        let matching = lock.withLock {
            cookies.removeAll { ($0.expires ?? .infinity) <= now }
            return cookies.filter { cookie in
                (cookie.domainMatch ? host == cookie.domain || host.hasSuffix("." + cookie.domain) : host == cookie.domain)
                    && Self.pathMatches(path, cookie.path) && (!cookie.secure || origin.scheme == "https")
            }
        }
        guard !matching.isEmpty else { return nil }
        // Longer paths first (RFC 6265 §5.4).
        return matching.sorted { $0.path.count > $1.path.count }.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    static func defaultPath(_ requestPath: String) -> String {
        guard requestPath.hasPrefix("/"), let last = requestPath.lastIndex(of: "/"), last != requestPath.startIndex else { return "/" }
        return String(requestPath[..<last])
    }

    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        let request = requestPath.isEmpty ? "/" : requestPath
        if request == cookiePath { return true }
        guard request.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || request.dropFirst(cookiePath.count).hasPrefix("/")
    }

    private static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
