/// One response a sign-in walk met on the target's own pages: what was asked, what came back, and what the page
/// would load.
public struct PageHop: Sendable, Hashable {
    public var method: String
    /// The URL asked for, redacted.
    public var url: String
    public var status: Int
    /// Whether the answer forbids framing (X-Frame-Options DENY/SAMEORIGIN, or CSP frame-ancestors 'none'/'self').
    public var framingDenied: Bool
    /// Whether the answer is a page a browser renders (a 2xx with a body).
    public var isPage: Bool
    /// What the page loads from other origins (scripts, styles, images, frames).
    public var thirdPartyResources: [String]
    /// Set on the hop that submitted a probe (a forged consent, a tampered return parameter).
    public var probe: String?

    public init(method: String, url: String, status: Int, framingDenied: Bool, isPage: Bool, thirdPartyResources: [String]) {
        self.method = method
        self.url = url
        self.status = status
        self.framingDenied = framingDenied
        self.isPage = isPage
        self.thirdPartyResources = thirdPartyResources
    }

    /// Where a redirect sends the browser, when the hop was one.
    public var location: String?
}
