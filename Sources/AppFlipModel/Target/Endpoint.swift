/// A partner endpoint the HTTP profiles talk to.
package enum Endpoint: String, Sendable, Hashable, CaseIterable {
    case authorize
    case token
    case revoke
    case siteAssociation = "site_association"
    /// The site association on the App Flip link's own host over https, where Apple's CDN fetches it (without
    /// following redirects). Derived from `link` whenever `site_association` is configured; given explicitly only
    /// to point at another name for the same deployment.
    case linkSiteAssociation = "link_site_association"
    case linkHandler = "link_handler"
    /// A protected API of the partner's that takes the access token as a Bearer credential (a userinfo or any
    /// cheap GET): tokens are judged by whether it accepts them.
    case api
    /// The server's metadata document (RFC 8414), for what it advertises (iss in authorization responses).
    case metadata
}
