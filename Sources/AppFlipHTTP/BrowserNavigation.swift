/// One navigation of the sign-in walk as a browser makes it: the page that started it (none for the authorization
/// request Google's app opens, the form's page for a submission), the referrer policy in force, and whether a
/// redirect crossed origins on the way. It gives every request of the navigation the `Referer` and `Origin` a browser
/// sends, which servers check against cross-site request forgery: Django refuses a POST over https that has neither
/// (its CSRF middleware's "Referer checking failed - no Referer"), and checks `Origin` where it is sent.
///
/// Not sent: the `Sec-Fetch-*` headers. `Sec-Fetch-Site` needs the public suffix list to tell same-site from
/// cross-site, which the suite does not carry; a wrong `cross-site` would get a correct server's resource-isolation
/// policy to refuse the walk, while their absence is how every browser before 2020 looks, which such servers allow.
package struct BrowserNavigation: Sendable, Equatable {
    /// The URL of the page that started the navigation (origin and target, no fragment), or nil.
    package var referrerOrigin: HTTPOrigin?
    package var referrerTarget = ""
    /// The policy in force: the page's, then a redirect's `Referrer-Policy` for the rest of the navigation.
    package var policy = ReferrerPolicy.browserDefault
    /// Set once a redirect leaves a URL whose origin is not the initiator's for another origin (WHATWG Fetch §4.4,
    /// "HTTP-redirect fetch": the request then has a redirect-tainted origin, sent as `Origin: null`).
    package var tainted = false

    package init(referrerOrigin: HTTPOrigin? = nil, referrerTarget: String = "", policy: ReferrerPolicy = .browserDefault, tainted: Bool = false) {
        self.referrerOrigin = referrerOrigin
        self.referrerTarget = referrerTarget
        self.policy = policy
        self.tainted = tainted
    }

    /// The navigation Google's app starts with the authorization request: no page, so no `Referer`.
    package static let opened = BrowserNavigation()

    /// A form submitted from a page at `origin` + `target` under the page's referrer policy.
    package static func submission(from origin: HTTPOrigin, target: String, policy: ReferrerPolicy) -> BrowserNavigation {
        // Cut at the fragment's '#' byte: read Character by Character, a long target cost a grapheme break test a
        // character on every page of every walk.
        let withoutFragment = target.utf8.firstIndex(of: UInt8(ascii: "#")).map { String(target[..<$0]) } ?? target
        return BrowserNavigation(referrerOrigin: origin, referrerTarget: withoutFragment, policy: policy)
    }

    /// The navigation followed through a redirect from `current` to `next`, whose answer set `policyHeader`.
    package func redirected(from current: HTTPOrigin, to next: HTTPOrigin, policyHeader: [String]) -> BrowserNavigation {
        var followed = self
        if let changed = ReferrerPolicy.parse(policyHeader) { followed.policy = changed }
        if current != next, referrerOrigin.map({ $0 != current }) ?? true { followed.tainted = true }
        return followed
    }

    /// The headers a browser adds to this navigation's request to `origin`: `Referer` when the policy sends one,
    /// `Origin` on a method other than GET and HEAD (WHATWG Fetch §3.1, "append a request `Origin` header").
    package func headers(to origin: HTTPOrigin, method: String) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        if let referrerOrigin, let referer = policy.referer(from: (referrerOrigin, referrerTarget), to: origin) {
            headers.append(("Referer", referer))
        }
        if method != "GET", method != "HEAD" {
            guard let referrerOrigin, !tainted, !policy.hidesOrigin(of: referrerOrigin, to: origin) else { return headers + [("Origin", "null")] }
            headers.append(("Origin", referrerOrigin.description))
        }
        return headers
    }

    /// `request` with this navigation's headers in place of any it had.
    package func apply(to request: HTTPRequest, origin: HTTPOrigin) -> HTTPRequest {
        var sent = request
        sent.headers.fields.removeAll { HTTPHeaders.sameName($0.name, "Referer") || HTTPHeaders.sameName($0.name, "Origin") }
        for header in headers(to: origin, method: request.method) { sent.headers.append(header.name, header.value) }
        return sent
    }
}
