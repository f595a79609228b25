import AppFlipModel
import AppFlipSyntax

/// `single_outcome: true`: the result says one thing. RESULT_OK carries no `ERROR_*` extras, and an error or a
/// cancel carries no non-empty `AUTHORIZATION_CODE` (Android App Flip).
package struct SingleOutcomeCheck: ActivityCheck {
    package static let key = "single_outcome"
    package static let documentation = CheckDocumentation(
        .activity, values: "`true`",
        holdsWhen: "a -1 result has no `ERROR_TYPE`, `ERROR_CODE` or `ERROR_DESCRIPTION`, and any other has no non-empty `AUTHORIZATION_CODE`")

    package static func read(_ node: Node, reader: inout NodeReader) -> [SingleOutcomeCheck]? {
        reader.word(node, key, is: "true") ? [SingleOutcomeCheck()] : nil
    }

    package var scope: CheckScope { .activity }

    package func expected(in context: Template.Context) -> String {
        "a code and no ERROR_* extras with -1; no code with any other result"
    }

    package func evaluate(_ result: ActivityResult, in context: Template.Context) -> CheckOutcome {
        guard result.data != nil else {
            return .held(observed: "no data intent, so one outcome: result \(ActivityResult.name(of: result.resultCode))")
        }
        if result.resultCode == ActivityResult.ok {
            let errors = ["ERROR_TYPE", "ERROR_CODE", "ERROR_DESCRIPTION"].filter { result.extra($0) != nil }
            return CheckOutcome(
                errors.isEmpty, errors.isEmpty ? "RESULT_OK with no ERROR_* extras" : "RESULT_OK together with " + errors.joined(separator: ", "))
        }
        if let code = result.extra("AUTHORIZATION_CODE"), code != .string("") {
            return .violated(
                observed: "result \(ActivityResult.name(of: result.resultCode)) together with AUTHORIZATION_CODE "
                    + ActivityResult.shown("AUTHORIZATION_CODE", code))
        }
        return .held(observed: "result \(ActivityResult.name(of: result.resultCode)) with no code")
    }
}
