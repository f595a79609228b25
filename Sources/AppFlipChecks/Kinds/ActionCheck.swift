import AppFlipModel
import AppFlipSyntax

/// `action: open | decline`: whether the handler opened a URL (for a request step: answered with a redirect).
package struct ActionCheck: CheckKind {
    package static let key = "action"
    package static let documentation = CheckDocumentation(
        .answer, values: "`open`, `decline`",
        holdsWhen: "the handler opened a URL / opened nothing (for a request: a 3xx with a `Location` / anything else)")

    package var action: HandlerAnswer.Action

    package static func read(_ node: Node, reader: inout NodeReader) -> [ActionCheck]? {
        reader.enumValue(node, "action", as: HandlerAnswer.Action.self).map { [ActionCheck(action: $0)] }
    }

    package var scope: CheckScope { .answer }

    package var traits: CheckTraits { CheckTraits(decidesAction: true, requiresOpen: action == .open) }

    package func expected(in context: Template.Context) -> String {
        action == .open ? "opens a URL (or redirects)" : "declines (opens nothing, does not redirect)"
    }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        switch observation {
        case .link(let answer):
            return CheckOutcome(answer.action == action, observation.summary)
        case .http(let response):
            return CheckOutcome(response.asAnswer.action == action, observation.summary)
        case .unreachable:
            return CheckOutcome(action == .decline, observation.summary)
        case .handshake:
            return .notApplicable(reason: "a TLS probe opens nothing and redirects nowhere")
        default:  // an app's step a contract drives: its observation names it
            return .notApplicable(reason: "\(observation.appStepNoun ?? "the step") opens no link")
        }
    }
}
