import AppFlipModel
import AppFlipSyntax

/// `authorization_code: absent`: the result carries no code (Android App Flip): no `AUTHORIZATION_CODE` extra, an
/// empty one (Google reads no code from it), or no data intent at all. A code that must be there is `ok_result`'s.
package struct AuthorizationCodeCheck: ActivityCheck {
    package static let key = "authorization_code"
    package static let documentation = CheckDocumentation(
        .activity, values: "`absent`", holdsWhen: "no `AUTHORIZATION_CODE`, or an empty one (also with no data intent)")

    package static func read(_ node: Node, reader: inout NodeReader) -> [AuthorizationCodeCheck]? {
        reader.word(node, key, is: "absent") ? [AuthorizationCodeCheck()] : nil
    }

    package var scope: CheckScope { .activity }

    package func expected(in context: Template.Context) -> String { "no authorization code" }

    package func evaluate(_ result: ActivityResult, in context: Template.Context) -> CheckOutcome {
        guard result.data != nil else { return .held(observed: "no data intent, so no code") }
        guard let code = result.extra("AUTHORIZATION_CODE") else { return .held(observed: "no AUTHORIZATION_CODE") }
        let shown = "AUTHORIZATION_CODE " + ActivityResult.shown("AUTHORIZATION_CODE", code)
        // Any value but an empty String is a code handed out (another type is still not the absence a case asks for).
        return CheckOutcome(code == .string(""), shown)
    }
}
