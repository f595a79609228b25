import AppFlipBase

/// A referrer policy (W3C Referrer Policy §3): how much of the page a browser leaves tells the next request in its
/// `Referer` header, and when a form's POST says `Origin: null` (WHATWG Fetch §3.1, "append a request `Origin`
/// header").
///
/// A browser's default is `strict-origin-when-cross-origin` (Referrer Policy §3, as Fetch sets it for a request
/// whose policy is empty); a page changes it with its `Referrer-Policy` header or `<meta name="referrer">`, and a
/// redirect's `Referrer-Policy` header changes it for the rest of that navigation (Fetch §4.4, step "set request's
/// referrer policy on redirect").
package enum ReferrerPolicy: String, Sendable, CaseIterable {
    case noReferrer = "no-referrer"
    case noReferrerWhenDowngrade = "no-referrer-when-downgrade"
    case sameOrigin = "same-origin"
    case origin = "origin"
    case strictOrigin = "strict-origin"
    case originWhenCrossOrigin = "origin-when-cross-origin"
    case strictOriginWhenCrossOrigin = "strict-origin-when-cross-origin"
    case unsafeURL = "unsafe-url"

    /// What a browser assumes when nothing sets a policy.
    package static let browserDefault = ReferrerPolicy.strictOriginWhenCrossOrigin

    /// A referrer longer than this is sent as its origin only (Referrer Policy §8.3, step 6).
    static let longestURL = 4096

    /// The policy a `Referrer-Policy` header (or a meta element's content) sets: the last token a browser knows, in a
    /// comma-separated list (Referrer Policy §4.1); nil when none is known, which leaves the policy as it was.
    package static func parse(_ values: [String]) -> ReferrerPolicy? {
        var found: ReferrerPolicy?
        for value in values {
            for token in value.split(separator: ",") {
                if let policy = ReferrerPolicy(rawValue: token.trimmingSpacesAndTabs().lowercased()) { found = policy }
            }
        }
        return found
    }

    /// The `Referer` a request to `current` carries when `referrer` (a page's URL, without fragment) sent it there
    /// (Referrer Policy §8.3, "determine request's referrer"); nil when the policy sends none.
    package func referer(from referrer: (origin: HTTPOrigin, target: String), to current: HTTPOrigin) -> String? {
        // Each form made only when the policy sends it (every request of a sign-in walk asks).
        func originOnly() -> String { referrer.origin.description + "/" }
        func full() -> String {
            let origin = referrer.origin.description
            let url = origin + referrer.target
            return url.utf8.count > Self.longestURL ? origin + "/" : url
        }
        func downgrade() -> Bool { Self.isPotentiallyTrustworthy(referrer.origin) && !Self.isPotentiallyTrustworthy(current) }
        let sameOrigin = referrer.origin == current
        switch self {
        case .noReferrer: return nil
        case .origin: return originOnly()
        case .unsafeURL: return full()
        case .strictOrigin: return downgrade() ? nil : originOnly()
        case .strictOriginWhenCrossOrigin: return sameOrigin ? full() : (downgrade() ? nil : originOnly())
        case .sameOrigin: return sameOrigin ? full() : nil
        case .originWhenCrossOrigin: return sameOrigin ? full() : originOnly()
        case .noReferrerWhenDowngrade: return downgrade() ? nil : full()
        }
    }

    /// Whether this policy makes a POST from `initiator` to `current` say `Origin: null` instead of the initiator's
    /// origin (Fetch §3.1, step 4 of "append a request `Origin` header").
    package func hidesOrigin(of initiator: HTTPOrigin, to current: HTTPOrigin) -> Bool {
        switch self {
        case .noReferrer:
            return true
        case .noReferrerWhenDowngrade, .strictOrigin, .strictOriginWhenCrossOrigin:
            return initiator.scheme == "https" && current.scheme != "https"
        case .sameOrigin:
            return initiator != current
        case .origin, .originWhenCrossOrigin, .unsafeURL:
            return false
        }
    }

    /// A potentially trustworthy origin (W3C Secure Contexts §3.1): https, or a loopback host over http.
    package static func isPotentiallyTrustworthy(_ origin: HTTPOrigin) -> Bool {
        if origin.scheme == "https" { return true }
        let host = origin.host.lowercased()
        return host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }
}
