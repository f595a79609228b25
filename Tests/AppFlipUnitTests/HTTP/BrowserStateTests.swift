import AppFlipHTTP
import Testing

/// What a simulated browser keeps between requests: cookies (RFC 6265) and resolved links (RFC 3986 §5.2).
@Suite("Browser state")
struct BrowserStateTests {
    struct Resolution: Sendable, CustomTestStringConvertible {
        var reference: String
        var expected: String?
        var testDescription: String { "\(reference) → \(expected ?? "nil")" }
    }

    static let base = "https://auth.example/oauth/authorize?client_id=g&state=s"
    static let resolutions: [Resolution] = [
        Resolution(reference: "/login?next=%2Fx", expected: "https://auth.example/login?next=%2Fx"),
        Resolution(reference: "consent", expected: "https://auth.example/oauth/consent"),
        Resolution(reference: "../login", expected: "https://auth.example/login"),
        Resolution(reference: "./a/./b/../c", expected: "https://auth.example/oauth/a/c"),
        Resolution(reference: "?step=2", expected: "https://auth.example/oauth/authorize?step=2"),
        Resolution(reference: "", expected: "https://auth.example/oauth/authorize?client_id=g&state=s"),
        Resolution(reference: "#top", expected: "https://auth.example/oauth/authorize?client_id=g&state=s"),
        Resolution(reference: "//other.example/x", expected: "https://other.example/x"),
        Resolution(reference: "http://auth.example:8080/p#f", expected: "http://auth.example:8080/p"),
        Resolution(reference: "javascript:alert(1)", expected: nil),
        Resolution(reference: "mailto:a@b.example", expected: nil),
        Resolution(reference: "a/b:c", expected: "https://auth.example/oauth/a/b:c"),
    ]

    @Test("Links resolve against the page they came from", arguments: resolutions)
    func resolve(_ resolution: Resolution) {
        #expect(URLReference.resolve(resolution.reference, against: Self.base) == resolution.expected)
    }

    @Test("Cookies go back to their host and path, secure ones only over https, and expire")
    func cookies() {
        let jar = CookieJar()
        jar.store(["session=abc; Path=/; HttpOnly; Secure", "csrf=t1; Path=/oauth", "pref=1; Max-Age=60"], from: "https://auth.example/login", now: 100)
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

    @Test("A Domain attribute extends to subdomains, but never to a host the response did not come from")
    func domains() {
        let jar = CookieJar()
        jar.store(["sso=1; Domain=.example.com; Path=/"], from: "https://login.example.com/", now: 0)
        #expect(jar.header(for: "https://api.example.com/", now: 1) == "sso=1")
        jar.store(["evil=1; Domain=victim.example; Path=/"], from: "https://login.example.com/", now: 0)
        #expect(jar.header(for: "https://victim.example/", now: 1) == nil)
    }
}
