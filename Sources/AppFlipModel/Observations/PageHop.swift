/// One response a sign-in walk met on the target's own pages: what was asked, what came back, and what the page
/// would load.
package struct PageHop: Sendable, Hashable {
    package var method: String
    /// The URL asked for, redacted.
    package var url: String
    package var status: Int
    /// Whether the answer forbids framing (X-Frame-Options DENY/SAMEORIGIN, or CSP frame-ancestors 'none'/'self').
    package var framingDenied: Bool
    /// Whether the answer is a page a browser renders (a 2xx with a body).
    package var isPage: Bool
    /// What the page loads from other origins (scripts, styles, images, frames).
    package var thirdPartyResources: [String]
    /// Set on the hop that submitted a probe (a forged consent, a tampered return parameter).
    package var probe: String?

    package init(method: String, url: String, status: Int, framingDenied: Bool, isPage: Bool, thirdPartyResources: [String]) {
        self.method = method
        self.url = url
        self.status = status
        self.framingDenied = framingDenied
        self.isPage = isPage
        self.thirdPartyResources = thirdPartyResources
    }

    /// Where a redirect sends the browser, when the hop was one.
    package var location: String?
}
