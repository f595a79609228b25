import AppFlipBase

/// What a report may show of an HTTP header's value, decided by the header's name. A list of credential headers is
/// never complete (`X-Session`, `X-Refresh`, `Authentication-Info`'s `nextnonce`: each server names its own), so the
/// rule runs the other way: only the values of headers known to carry no credential (`harmless`, the one list) are
/// shown, and every other value is hidden whole. Within that rule:
///
/// - `Authorization` and `Proxy-Authorization`: the scheme stays, the credentials are hidden (any scheme);
/// - `Cookie`, `Set-Cookie` and `Set-Cookie2`: names and attributes stay, every cookie value is hidden, also in a line
///   a platform stack merged with commas (`a=1; Path=/, b=SECRET; Path=/`);
/// - `Location`, `Content-Location`, `Referer` and `Origin`: shown with a URL's credentials hidden (`code=…`, a
///   userinfo password, a credential in a URL inside a parameter);
/// - every header in `harmless`: shown as it came.
///
/// Whatever is shown still goes through `Redactor` (every known secret in any encoding, every named credential), and
/// so does every header's name: a name can carry a token as well as a value can.
package enum HeaderCredentials {
    /// Headers whose values carry no credential (lower case): protocol framing, content description, caching,
    /// security policies, rate limits, tracing identifiers and challenges (`WWW-Authenticate` asks for a credential,
    /// it holds none).
    package static let harmless: Set<String> = [
        "accept", "accept-charset", "accept-encoding", "accept-language", "accept-ranges", "access-control-allow-credentials",
        "access-control-allow-headers", "access-control-allow-methods", "access-control-allow-origin", "access-control-expose-headers",
        "access-control-max-age", "access-control-request-headers", "access-control-request-method", "age", "allow", "alt-svc",
        "cache-control", "cf-ray", "connection", "content-disposition", "content-encoding", "content-language", "content-length",
        "content-range", "content-security-policy", "content-security-policy-report-only", "content-type", "cross-origin-embedder-policy",
        "cross-origin-opener-policy", "cross-origin-resource-policy", "date", "etag", "expect", "expires", "host", "if-match",
        "if-modified-since", "if-none-match", "if-range", "if-unmodified-since", "keep-alive", "last-modified", "link", "nel",
        "origin-agent-cluster", "permissions-policy", "pragma", "proxy-authenticate", "range", "ratelimit", "ratelimit-limit",
        "ratelimit-policy", "ratelimit-remaining", "ratelimit-reset", "referrer-policy", "report-to", "request-id", "retry-after",
        "server", "server-timing", "strict-transport-security", "te", "timing-allow-origin", "traceparent", "tracestate", "trailer",
        "transfer-encoding", "upgrade", "user-agent", "vary", "via", "www-authenticate", "x-amzn-trace-id", "x-cache",
        "x-content-type-options", "x-correlation-id", "x-dns-prefetch-control", "x-download-options", "x-frame-options",
        "x-permitted-cross-domain-policies", "x-powered-by", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset",
        "x-request-id", "x-robots-tag", "x-xss-protection",
    ]

    /// Headers whose value is a URL: shown with the URL's credentials hidden.
    static let urls: Set<String> = ["location", "content-location", "referer", "origin"]

    package static func hide(name: String, value: String) -> String {
        // Every header of every exchange passes here: the name lower-cased byte-wise.
        let lower = asciiLowercased(name)
        switch lower {
        case "authorization", "proxy-authorization":
            let trimmed = value.drop { $0 == " " || $0 == "\t" }
            guard let space = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) else {
                return trimmed.isEmpty ? value : Redaction.placeholder(for: Array(trimmed.utf8))
            }
            let credentials = trimmed[space...].drop { $0 == " " || $0 == "\t" }
            guard !credentials.isEmpty else { return value }
            return String(trimmed[..<space]) + " " + Redaction.placeholder(for: Array(credentials.utf8))
        case "cookie":
            return hideCookies(value, attributes: false)
        case "set-cookie", "set-cookie2":
            return hideCookies(value, attributes: true)
        case _ where urls.contains(lower):
            return Redaction.redact(url: value)
        case _ where harmless.contains(lower), "":
            // A line without a name is the suite's own (the count of lines not kept).
            return value
        default:
            guard !value.isEmpty, !Redaction.isPlaceholder(Substring(value)) else { return value }
            return Redaction.placeholder(for: Array(value.utf8))
        }
    }

    /// The cookie attributes of RFC 6265 §5.2 and RFC 2965: their values stay.
    private static let cookieAttributes: Set<String> = [
        "expires", "max-age", "domain", "path", "samesite", "priority", "partitioned", "secure", "httponly", "comment", "commenturl",
        "version", "port", "discard",
    ]

    /// Every cookie value hidden. The value is read as pieces between `;` and `,`. The first piece is a cookie, and so
    /// is any piece after a comma (a comma starts the next cookie of a merged line), except the rest of an `Expires`
    /// date, the one attribute value with a comma in it. After a semicolon, with `attributes`, a piece named as an
    /// attribute keeps its value and a flag (`Secure`, `HttpOnly`) stays; anything else is a value and is hidden, with
    /// or without a name.
    private static func hideCookies(_ value: String, attributes: Bool) -> String {
        var output = ""
        var afterComma = true
        var previous: String?
        var rest = Substring(value)
        while true {
            let end = rest.firstIndex { $0 == ";" || $0 == "," } ?? rest.endIndex
            let piece = rest[..<end]
            let name = attributeName(piece)
            let word = asciiLowercased(piece.trimmingSpaces())
            let kept =
                word.isEmpty
                || (afterComma && name == nil && previous == "expires")
                || (attributes && !afterComma && (name.map(cookieAttributes.contains) ?? cookieFlags.contains(word)))
            output += kept ? String(piece) : hideCookieValue(piece)
            previous = name
            guard end < rest.endIndex else { break }
            afterComma = rest[end] == ","
            output.append(rest[end])
            rest = rest[rest.index(after: end)...]
        }
        return output
    }

    /// The cookie attributes that take no value.
    private static let cookieFlags: Set<String> = ["secure", "httponly", "partitioned", "discard"]

    /// The lower-cased name of a `name=value` piece, or nil without `=`.
    private static func attributeName(_ piece: Substring) -> String? {
        guard let equals = piece.firstIndex(of: "=") else { return nil }
        return asciiLowercased(piece[..<equals].trimmingSpaces())
    }

    /// `text` with its ASCII letters lower-cased, byte by byte: what every name here is compared with is ASCII, and
    /// the one Unicode letter whose lower case is ASCII (the Kelvin sign's `k`) is in none of them.
    private static func asciiLowercased(_ text: some StringProtocol) -> String {
        // Written in place (every header name of every exchange is lower-cased here).
        var text = String(text)
        return text.withUTF8 { bytes in
            guard bytes.contains(where: { $0 &- UInt8(ascii: "A") < 26 }) else { return nil }
            return String(unsafeUninitializedCapacity: bytes.count) { lowered in
                for index in bytes.indices { lowered[index] = bytes[index].asciiLowercased }
                return bytes.count
            }
        } ?? text
    }

    /// `name=value` with the value hidden (an empty value stays empty: nothing to hide); a piece without `=` is a value
    /// without a name, hidden whole (its leading space stays).
    private static func hideCookieValue(_ pair: Substring) -> String {
        guard let equals = pair.firstIndex(of: "=") else {
            let value = pair.drop { $0 == " " || $0 == "\t" }
            guard !value.isEmpty, !Redaction.isPlaceholder(value) else { return String(pair) }
            return pair[..<value.startIndex] + Redaction.placeholder(for: Array(value.utf8))
        }
        let cookie = pair[pair.index(after: equals)...]
        guard !cookie.trimmingSpaces().isEmpty, !Redaction.isPlaceholder(cookie) else { return String(pair) }
        return pair[...equals] + Redaction.placeholder(for: Array(cookie.utf8))
    }
}
