import AppFlipModel
import AppFlipSyntax

/// `app: signed-in` (or `rejected`, `refreshed`, `api-call`, `no-token`, `signed-out`): the native app's answer to
/// the step's command.
package struct AppAnswerCheck: NativeCheck {
    package static let key = "app"
    package static let documentation = CheckDocumentation(
        .native, values: "`signed-in`, `rejected`, `refreshed`, `api-call`, `no-token`, `signed-out`",
        holdsWhen: "the app's answer to the step's command is that action")

    package let action: NativeAnswer.Action

    package static func read(_ node: Node, reader: inout NodeReader) -> [AppAnswerCheck]? {
        guard let action = reader.enumValue(node, "'app'", as: NativeAnswer.Action.self), action != .openBrowser else {
            if case .scalar(let scalar) = node, scalar.text == NativeAnswer.Action.openBrowser.rawValue {
                reader.error(at: scalar.location, "'app: open-browser' is part of every sign-in; judge the request with 'audit'")
            }
            return nil
        }
        return [AppAnswerCheck(action: action)]
    }

    package var scope: CheckScope { .native }

    package func expected(in context: Template.Context) -> String { "the app answers \(action.rawValue)" }

    package func evaluate(_ native: NativeObservation, in context: Template.Context) -> CheckOutcome {
        if [.signedIn, .refreshed, .apiCall].contains(action), let reason = native.needsTokensReason { return .notApplicable(reason: reason) }
        return CheckOutcome(native.answer?.action == action, native.summary)
    }
}
