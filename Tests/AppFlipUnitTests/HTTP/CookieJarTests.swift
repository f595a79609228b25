import AppFlipBase
import AppFlipTestSupport
import Testing

@testable import AppFlipHTTP

/// The simulated browser's cookies (RFC 6265): kept per host and path, sent back where they belong, expired and
/// deleted as the server says, and never a reason to stop a run whatever a server writes in `Set-Cookie`.
@Suite("Cookie jar")
struct CookieJarTests {
    @Test("Cookies go back to their host and path, secure ones only over https, and expire")
    func cookies() {
        let jar = CookieJar()
        jar.store(
            ["session=abc; Path=/; HttpOnly; Secure", "csrf=t1; Path=/oauth", "pref=1; Max-Age=60"], from: "https://auth.example/login", now: 100)
        #expect(jar.header(for: "https://auth.example/oauth/consent", now: 101) == "csrf=t1; session=abc; pref=1")
        #expect(jar.header(for: "http://auth.example/oauth/consent", now: 101) == "csrf=t1; pref=1", "a secure cookie is never sent in clear")
        #expect(jar.header(for: "https://auth.example/other", now: 101) == "session=abc; pref=1", "path /oauth does not match /other")
        #expect(jar.header(for: "https://other.example/", now: 101) == nil, "a host-only cookie stays with its host")
        #expect(jar.header(for: "https://auth.example/", now: 200) == "session=abc", "Max-Age ran out")
        jar.store(["session=; Path=/elsewhere; Max-Age=0"], from: "https://auth.example/logout", now: 201)
        #expect(jar.header(for: "https://auth.example/", now: 202) == "session=abc", "a deletion must match name, domain and path")
        jar.store(["session=; Max-Age=0"], from: "https://auth.example/logout", now: 203)
        #expect(jar.header(for: "https://auth.example/", now: 204) == nil, "the default path of /logout is /")
    }

    @Test("An IP host's cookies go to that exact address: Domain=0.1 from 127.0.0.1 reaches neither 127.1.0.1 nor 10.0.0.1 (RFC 6265 §5.1.3)")
    func ipHostOnly() {
        let jar = CookieJar()
        jar.store(["wide=1; Domain=0.1; Path=/", "same=2; Domain=127.0.0.1; Path=/", "plain=3; Path=/"], from: "http://127.0.0.1:8080/", now: 0)
        #expect(jar.header(for: "http://127.1.0.1:8080/", now: 1) == nil)
        #expect(jar.header(for: "http://10.0.0.1/", now: 1) == nil)
        #expect(jar.header(for: "http://127.0.0.1:8080/", now: 1) == "same=2; plain=3")
        // A host name still shares with its subdomains.
        jar.store(["s=1; Domain=example.com; Path=/"], from: "https://login.example.com/", now: 0)
        #expect(jar.header(for: "https://api.example.com/", now: 1) == "s=1")
    }

    @Test("A Domain attribute extends to subdomains, but never to a host the response did not come from")
    func domains() {
        let jar = CookieJar()
        jar.store(["sso=1; Domain=.example.com; Path=/"], from: "https://login.example.com/", now: 0)
        #expect(jar.header(for: "https://api.example.com/", now: 1) == "sso=1")
        jar.store(["evil=1; Domain=victim.example; Path=/"], from: "https://login.example.com/", now: 0)
        #expect(jar.header(for: "https://victim.example/", now: 1) == nil)
    }

    @Test("A cookie for a foreign domain is ignored whole: it deletes nothing either (RFC 6265 §5.3 step 6)")
    func foreignDomainDeletesNothing() {
        let jar = CookieJar()
        jar.store(["session=abc; Path=/"], from: "https://auth.example/", now: 0)
        jar.store(["session=; Path=/; Domain=victim.example; Max-Age=0"], from: "https://auth.example/", now: 1)
        #expect(jar.header(for: "https://auth.example/", now: 2) == "session=abc")
    }

    @Test("Max-Age wins over Expires whichever comes first, and the last Max-Age counts (RFC 6265 §5.3 step 3)")
    func maxAgeWins() {
        let lapsed = "Expires=Thu, 01 Jan 1970 00:00:01 GMT"
        let jar = CookieJar()
        jar.store(
            [
                "a=1; \(lapsed); Max-Age=60", "b=2; Max-Age=60; \(lapsed)", "c=3; Max-Age=0; Max-Age=60", "d=4; \(lapsed)",
                "e=5; Max-Age=60; Max-Age=0",
            ], from: "https://auth.example/", now: 0)
        #expect(jar.header(for: "https://auth.example/", now: 1) == "a=1; b=2; c=3")
        #expect(jar.header(for: "https://auth.example/", now: 61) == nil)
    }

    @Test(
        "Set-Cookie values as servers really write them are read, not a reason to stop",
        arguments: [
            ("session=abc; Path=/;", "session=abc"),  // a trailing semicolon
            ("session=abc;;; Path=/ ;", "session=abc"),
            ("session=abc; ; =Secure; = ; Path", "session=abc"),  // empty and nameless attributes
            ("session=a=b=c; PATH=/; SECURE", "session=a=b=c"),
            ("  session = abc  ;path=/", "session=abc"),
            ("session=", "session="),
            ("session=abc; Domain=; Path=/", "session=abc"),  // an empty Domain is ignored (§5.2.3)
            ("session=abc; Max-Age=; Expires=", "session=abc"),
            ("=abc; Path=/", nil),  // no name: ignored
            ("no-equals-sign", nil),
            (";", nil),
            ("", nil),
        ] as [(String, String?)])
    func serversStyles(_ header: String, _ expected: String?) {
        let jar = CookieJar()
        jar.store([header], from: "https://auth.example/", now: 0)
        #expect(jar.header(for: "https://auth.example/", now: 1) == expected)
    }

    @Test("The byte-level reading keeps what the Character-based one did on 8,000 seeded cookie sets")
    func sameAsCharacterJar() {
        // The generator stays inside what both read alike: no empty attribute (the old reading stopped the run on
        // one), one Max-Age at most and no Expires (their precedence is the test above), no foreign or empty domain (now ignored whole).
        let names = ["session", "csrf", "SID", "a_b", "x"]
        let values = ["abc", "", "a=b", "%20x", "\u{00A0}v\u{00A0}", "é"]
        let attributes = [
            "Path=/", "Path=/oauth", "PATH=/oauth/", "path=relative", "Path=", "Domain=auth.example", "domain=.EXAMPLE",
            "Domain=", "Max-Age=60", "max-age=0", "Max-Age=-5", "Max-Age=x", "Max-Age=+30", "Secure", "secure=1",
            "HttpOnly", "SameSite=Lax", "Unknown=1",
        ]
        let spacing = ["", " ", "  ", "\t", "\u{00A0}"]
        let urls = [
            "https://auth.example/", "https://auth.example/oauth/consent", "http://auth.example/oauth/x?y=1",
            "https://sub.auth.example/login", "https://example/",
        ]
        var random = Mutator(seed: 20_261_123)
        for _ in 0..<8_000 {
            let jar = CookieJar()
            let oracle = CharacterCookieJar()
            let from = urls[random.below(urls.count - 1)]  // every Domain above is this host or a parent of it
            var headers: [String] = []
            for _ in 0..<(1 + random.below(3)) {
                let space = { spacing[random.below(spacing.count)] }
                var header = "\(space())\(names[random.below(names.count)])\(space())=\(values[random.below(values.count)])"
                var maxAge = false
                for _ in 0..<random.below(4) {
                    let attribute = attributes[random.below(attributes.count)]
                    let isMaxAge = attribute.lowercased().hasPrefix("max-age")
                    if isMaxAge, maxAge { continue }  // the last of several counts now (the test above)
                    maxAge = maxAge || isMaxAge
                    header += ";\(space())\(attribute)\(space())"
                }
                headers.append(header)
            }
            jar.store(headers, from: from, now: 10)
            oracle.store(headers, from: from, now: 10)
            guard jar.all == oracle.cookies else {
                Issue.record("\(headers) from \(from): \(jar.all), the Character jar \(oracle.cookies)")
                return
            }
            for url in urls {
                let (sent, expected) = (jar.header(for: url, now: 20), oracle.header(for: url, now: 20))
                guard sent == expected else {
                    Issue.record("\(headers) from \(from), sent to \(url): \(sent ?? "nil"), the Character jar \(expected ?? "nil")")
                    return
                }
            }
        }
    }

    /// The jar as it read `Set-Cookie` by Characters before it read bytes (without Expires), kept as the oracle.
    final class CharacterCookieJar {
        var cookies: [CookieJar.Cookie] = []

        func store(_ setCookies: [String], from url: String, now: Double) {
            guard let (origin, target) = HTTPOrigin.split(url) else { return }
            let host = origin.host.lowercased()
            let requestPath = String(target.prefix { $0 != "?" })
            for header in setCookies where header.utf8.count <= CookieJar.maximumCookieBytes {
                var parts = header.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingSpaces() }
                guard !parts.isEmpty, let equals = parts[0].firstIndex(of: "=") else { continue }
                let name = String(parts[0][..<equals]).trimmingSpaces()
                let value = String(parts[0][parts[0].index(after: equals)...]).trimmingSpaces()
                guard !name.isEmpty else { continue }
                parts.removeFirst()
                var cookie = CookieJar.Cookie(
                    name: name, value: value, domain: host, domainMatch: false,
                    path: CookieJar.defaultPath(Substring(requestPath)), secure: false, expires: nil)
                var delete = false
                for attribute in parts {
                    let pieces = attribute.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces() }
                    switch pieces[0].lowercased() {
                    case "path" where pieces.count == 2 && pieces[1].hasPrefix("/"):
                        cookie.path = pieces[1]
                    case "domain" where pieces.count == 2:
                        var domain = pieces[1].lowercased()
                        if domain.hasPrefix(".") { domain.removeFirst() }
                        guard host == domain || host.hasSuffix("." + domain) else {
                            delete = true
                            continue
                        }
                        cookie.domain = domain
                        cookie.domainMatch = true
                    case "max-age" where pieces.count == 2:
                        if let seconds = Int(pieces[1]) {
                            if seconds <= 0 { delete = true } else { cookie.expires = now + Double(seconds) }
                        }
                    case "secure":
                        cookie.secure = true
                    default:
                        continue
                    }
                }
                cookies.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
                if !delete, cookies.filter({ $0.domain == cookie.domain }).count < CookieJar.maximumCookiesPerHost { cookies.append(cookie) }
            }
        }

        func header(for url: String, now: Double) -> String? {
            guard let (origin, target) = HTTPOrigin.split(url) else { return nil }
            let host = origin.host.lowercased()
            let path = String(target.prefix { $0 != "?" })
            cookies.removeAll { ($0.expires ?? .infinity) <= now }
            let matching = cookies.filter { cookie in
                (cookie.domainMatch ? host == cookie.domain || host.hasSuffix("." + cookie.domain) : host == cookie.domain)
                    && Self.pathMatches(path, cookie.path) && (!cookie.secure || origin.scheme == "https")
            }
            guard !matching.isEmpty else { return nil }
            return matching.sorted { $0.path.count > $1.path.count }.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
        }

        static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
            let request = requestPath.isEmpty ? "/" : requestPath
            if request == cookiePath { return true }
            guard request.hasPrefix(cookiePath) else { return false }
            return cookiePath.hasSuffix("/") || request.dropFirst(cookiePath.count).hasPrefix("/")
        }
    }
}
