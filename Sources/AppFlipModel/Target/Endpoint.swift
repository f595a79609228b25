/// A partner endpoint the HTTP profiles talk to.
public enum Endpoint: String, Sendable, Hashable, CaseIterable {
    case authorize
    case token
    case revoke
    case siteAssociation = "site_association"
    case linkHandler = "link_handler"
}
