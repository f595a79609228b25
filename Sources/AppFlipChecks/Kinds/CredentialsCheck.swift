import AppFlipBase
import AppFlipModel
import AppFlipSyntax

/// `credentials: absent`: the opened URL hands over no token or secret: no parameter of its query or its fragment is
/// named `access_token`, `refresh_token`, `id_token`, `token` or `client_secret` (in any case). What it should hand
/// over, and where, is other requirements' (`params`, `fragment`): a code in the fragment is not a token in the URL.
package struct CredentialsCheck: CheckKind {
    package static let key = "credentials"
    package static let documentation = CheckDocumentation(
        .answer, values: "`absent`",
        holdsWhen:
            "no parameter of the opened URL's query or fragment is named access_token, refresh_token, id_token, token or client_secret (in any case)")

    /// The parameter names that carry a token or a secret.
    package static let names: Set<String> = ["access_token", "refresh_token", "id_token", "token", "client_secret"]

    package init() {}

    package static func read(_ node: Node, reader: inout NodeReader) -> [CredentialsCheck]? {
        reader.keyword(node, key, "absent") ? [CredentialsCheck()] : nil
    }

    package var scope: CheckScope { .openedURL }

    package static var openedURLForm: String? { "`credentials`" }

    package func expected(in context: Template.Context) -> String { "no token or secret in the URL" }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        let parts = URLParts(observation.openedURL ?? "")
        var found: [String] = []
        for (place, parameters) in [
            ("query", context.openedParameters(of: observation)), ("fragment", parts.fragment.map { QueryParameter.parse(query: $0) } ?? []),
        ] {
            for name in parameters.compactMap(\.nameText) where Self.names.contains(name.lowercased()) {
                found.append("\(name) in the \(place)")
            }
        }
        return CheckOutcome(found.isEmpty, found.isEmpty ? "no token or secret parameter" : found.joined(separator: ", "))
    }
}
