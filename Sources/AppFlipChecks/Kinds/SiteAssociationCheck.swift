import AppFlipModel
import AppFlipSyntax

/// `site_association: covers`: the apple-app-site-association file lets the configured app open the link's path.
package struct SiteAssociationCheck: HTTPResponseCheck {
    package static let key = "site_association"
    package static let documentation = CheckDocumentation(
        .response, values: "`covers`",
        holdsWhen: "the apple-app-site-association lets `${app_id}` open the link's path (`components` or legacy `paths`)")

    package static func read(_ node: Node, reader: inout NodeReader) -> [SiteAssociationCheck]? {
        reader.keyword(node, key, "covers") ? [SiteAssociationCheck()] : nil
    }

    package var scope: CheckScope { .response }

    package func expected(in context: Template.Context) -> String {
        "applinks lets \(context.configuration.appID.isEmpty ? "the app" : context.configuration.appID) open the link's path"
    }

    package func evaluate(_ response: HTTPObservation, in context: Template.Context) -> CheckOutcome {
        let configuration = context.configuration
        let items = [
            ("client_id", configuration.clientID), ("scope", configuration.scope), ("state", context.generated.state),
            ("redirect_uri", configuration.redirectURI),
        ].map { (name: $0.0, value: $0.1) }
        return SiteAssociation.covers(response.body, appID: configuration.appID, link: configuration.link, query: items)
    }
}
