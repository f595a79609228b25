import AppFlipModel
import AppFlipSyntax

/// `user_agent: external`: the app opens its authorization request in an external user agent, the system browser or
/// an in-app browser tab (ASWebAuthenticationSession, SFSafariViewController, Custom Tabs), never an embedded web view
/// (RFC 8252 §5, §8.12). The suite cannot see the browser: this judges what the adapter reports, and does not apply
/// when it reports nothing.
package struct UserAgentCheck: CheckKind {
    package static let key = "user_agent"
    package static let documentation = CheckDocumentation(
        .native, values: "`external`",
        holdsWhen: "the adapter reports `external` or `in-app-tab` for the sign-in, not `embedded` (not judged when it reports nothing)")

    package static func read(_ node: Node, reader: inout NodeReader) -> [UserAgentCheck]? {
        reader.keyword(node, key, "external") ? [UserAgentCheck()] : nil
    }

    package var scope: CheckScope { .native }

    package var traits: CheckTraits { CheckTraits(judgesOnlyTheRequest: true) }

    package func expected(in context: Template.Context) -> String { "an external user agent (system browser or in-app browser tab)" }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        guard case .native(let native) = observation, native.command == .signIn else { return .notApplicable(reason: "not a sign-in step") }
        guard let agent = native.userAgent else {
            return .notApplicable(reason: "the adapter did not report how the app opens the page (user_agent)")
        }
        return CheckOutcome(agent != .embedded, "user_agent: \(agent.rawValue)")
    }
}
