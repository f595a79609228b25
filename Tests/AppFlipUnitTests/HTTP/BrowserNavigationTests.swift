import AppFlipHTTP
import Testing

/// The `Referer` and `Origin` the sign-in walk sends as a browser does (W3C Referrer Policy §8.3, WHATWG Fetch §3.1 and
/// §4.4): what servers check against cross-site request forgery, Django's CSRF middleware among them.
@Suite("Browser navigation: Referer and Origin")
struct BrowserNavigationTests {
    static let auth = HTTPOrigin(scheme: "https", host: "auth.example", port: 443)
    static let login = HTTPOrigin(scheme: "https", host: "login.example", port: 443)
    static let plain = HTTPOrigin(scheme: "http", host: "auth.example", port: 80)
    static let page = "/accounts/login/?next=/o/authorize/%3Fstate%3Dx"

    private func headers(_ navigation: BrowserNavigation, to origin: HTTPOrigin, method: String = "POST") -> [String: String] {
        Dictionary(navigation.headers(to: origin, method: method).map { ($0.name, $0.value) }) { first, _ in first }
    }

    @Test("The request Google's app opens carries neither header")
    func opened() {
        #expect(headers(.opened, to: Self.auth, method: "GET").isEmpty)
    }

    @Test("A form posted to its own origin sends that origin and the page's whole URL, as Django's check over https needs")
    func sameOriginPost() {
        let navigation = BrowserNavigation.submission(from: Self.auth, target: Self.page + "#top", policy: .browserDefault)
        #expect(headers(navigation, to: Self.auth) == ["Referer": "https://auth.example" + Self.page, "Origin": "https://auth.example"])
        #expect(headers(navigation, to: Self.auth, method: "GET") == ["Referer": "https://auth.example" + Self.page], "no Origin on a GET navigation")
    }

    @Test("Cross-origin, the default policy sends the page's origin only, and nothing to plain http")
    func crossOrigin() {
        let navigation = BrowserNavigation.submission(from: Self.login, target: Self.page, policy: .browserDefault)
        #expect(headers(navigation, to: Self.auth) == ["Referer": "https://login.example/", "Origin": "https://login.example"])
        #expect(headers(navigation, to: Self.plain) == ["Origin": "null"], "a downgrade sends no Referer, and Origin null for a POST")
    }

    @Test(
        "Each policy's Referer",
        arguments: [
            (ReferrerPolicy.noReferrer, nil, nil),
            (.origin, "https://auth.example/", "https://auth.example/"),
            (.unsafeURL, "https://auth.example/p?q", "https://auth.example/p?q"),
            (.sameOrigin, "https://auth.example/p?q", nil),
            (.originWhenCrossOrigin, "https://auth.example/p?q", "https://auth.example/"),
            (.strictOrigin, "https://auth.example/", "https://auth.example/"),
            (.noReferrerWhenDowngrade, "https://auth.example/p?q", "https://auth.example/p?q"),
            (.strictOriginWhenCrossOrigin, "https://auth.example/p?q", "https://auth.example/"),
        ] as [(ReferrerPolicy, String?, String?)])
    func policies(_ policy: ReferrerPolicy, sameOrigin: String?, crossOrigin: String?) {
        #expect(policy.referer(from: (Self.auth, "/p?q"), to: Self.auth) == sameOrigin)
        #expect(policy.referer(from: (Self.auth, "/p?q"), to: Self.login) == crossOrigin)
    }

    @Test("A URL longer than 4,096 bytes is sent as its origin; an origin is spelled with its port only when it is not the default")
    func longURLsAndOrigins() {
        let long = "/" + String(repeating: "a", count: 4_096 - "https://auth.example/".utf8.count)
        #expect(ReferrerPolicy.unsafeURL.referer(from: (Self.auth, long), to: Self.auth) == "https://auth.example" + long)
        #expect(ReferrerPolicy.unsafeURL.referer(from: (Self.auth, long + "b"), to: Self.auth) == "https://auth.example/")
        #expect(ReferrerPolicy.strictOriginWhenCrossOrigin.referer(from: (Self.auth, long + "b"), to: Self.auth) == "https://auth.example/")
        let origins = [
            (Self.auth, "https://auth.example", "auth.example"), (Self.plain, "http://auth.example", "auth.example"),
            (HTTPOrigin(scheme: "http", host: "auth.example", port: 443), "http://auth.example:443", "auth.example:443"),
            (HTTPOrigin(scheme: "https", host: "::1", port: 8443), "https://[::1]:8443", "[::1]:8443"),
            (HTTPOrigin(scheme: "https", host: "::1", port: 443), "https://[::1]", "[::1]"),
        ]
        for (origin, description, hostHeader) in origins {
            #expect(origin.description == description && origin.hostHeader == hostHeader)
        }
    }

    @Test("A Referrer-Policy header: the last token a browser knows wins; unknown ones change nothing")
    func parsing() {
        #expect(ReferrerPolicy.parse(["no-referrer, same-origin"]) == .sameOrigin)
        #expect(ReferrerPolicy.parse(["Same-Origin , made-up"]) == .sameOrigin)
        #expect(ReferrerPolicy.parse(["made-up", ""]) == nil)
        #expect(ReferrerPolicy.parse(["origin", "unsafe-url"]) == .unsafeURL)
    }

    @Test("A page under same-origin or no-referrer posts with Origin null where the policy hides it")
    func hiddenOrigin() {
        let sameOnly = BrowserNavigation.submission(from: Self.login, target: "/", policy: .sameOrigin)
        #expect(headers(sameOnly, to: Self.auth) == ["Origin": "null"])
        #expect(headers(sameOnly, to: Self.login) == ["Referer": "https://login.example/", "Origin": "https://login.example"])
        let none = BrowserNavigation.submission(from: Self.auth, target: "/", policy: .noReferrer)
        #expect(headers(none, to: Self.auth) == ["Origin": "null"])
    }

    @Test("A redirect keeps the page as referrer, takes its own Referrer-Policy, and taints the origin once it crosses")
    func redirects() {
        let posted = BrowserNavigation.submission(from: Self.auth, target: "/login", policy: .browserDefault)
        let back = posted.redirected(from: Self.auth, to: Self.auth, policyHeader: [])
        #expect(headers(back, to: Self.auth, method: "GET") == ["Referer": "https://auth.example/login"])
        let away = posted.redirected(from: Self.auth, to: Self.login, policyHeader: ["no-referrer"])
        #expect(headers(away, to: Self.login, method: "GET").isEmpty)
        // A 307 keeps the POST: after a hop through a third origin, its Origin is null (Fetch §4.4, step 13).
        let third = HTTPOrigin(scheme: "https", host: "third.example", port: 443)
        let crossed = posted.redirected(from: Self.auth, to: Self.login, policyHeader: []).redirected(from: Self.login, to: third, policyHeader: [])
        #expect(headers(crossed, to: third)["Origin"] == "null", "it left login.example, not the initiator's origin, for another")
        #expect(
            headers(posted.redirected(from: Self.auth, to: Self.login, policyHeader: []), to: Self.login)
                == ["Referer": "https://auth.example/", "Origin": "https://auth.example"], "one hop from the initiator's own origin: not tainted")
    }

    @Test("Applied to a request, the navigation's headers replace any it had")
    func applied() {
        var request = HTTPRequest(method: "POST", target: "/login", headers: HTTPHeaders([("Referer", "https://evil.example/"), ("Origin", "x")]))
        request = BrowserNavigation.submission(from: Self.auth, target: "/login", policy: .browserDefault).apply(to: request, origin: Self.auth)
        #expect(request.headers.values("Referer") == ["https://auth.example/login"])
        #expect(request.headers.values("Origin") == ["https://auth.example"])
    }

    @Test("Loopback http is potentially trustworthy: a local test server is no downgrade target")
    func loopback() {
        #expect(ReferrerPolicy.isPotentiallyTrustworthy(HTTPOrigin(scheme: "http", host: "127.0.0.1", port: 8080)))
        #expect(ReferrerPolicy.isPotentiallyTrustworthy(HTTPOrigin(scheme: "http", host: "localhost", port: 80)))
        #expect(!ReferrerPolicy.isPotentiallyTrustworthy(Self.plain))
    }
}
