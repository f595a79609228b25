import AppFlipModel
import AppFlipSyntax

/// `ok_result: well-formed`: a RESULT_OK (-1) comes with a data intent carrying one non-empty String
/// `AUTHORIZATION_CODE` (Android App Flip). Not applicable to any other result, which `error_result` and the case's
/// own checks judge.
package struct OKResultCheck: ActivityCheck {
    package static let key = "ok_result"
    package static let documentation = CheckDocumentation(
        .activity, values: "`well-formed`",
        holdsWhen: "a -1 result has a data intent with a non-empty String `AUTHORIZATION_CODE` (not applicable to other results)")

    package static func read(_ node: Node, reader: inout NodeReader) -> [OKResultCheck]? {
        reader.word(node, key, is: "well-formed") ? [OKResultCheck()] : nil
    }

    package var scope: CheckScope { .activity }

    package func expected(in context: Template.Context) -> String {
        "RESULT_OK with a data intent carrying one non-empty String AUTHORIZATION_CODE"
    }

    package func evaluate(_ result: ActivityResult, in context: Template.Context) -> CheckOutcome {
        guard result.resultCode == ActivityResult.ok else {
            return .notApplicable(reason: "result \(ActivityResult.name(of: result.resultCode)) is not a RESULT_OK")
        }
        guard result.data != nil else { return .violated(observed: "RESULT_OK with no data intent") }
        guard let code = result.extra("AUTHORIZATION_CODE") else { return .violated(observed: "RESULT_OK with no AUTHORIZATION_CODE") }
        let shown = "RESULT_OK with AUTHORIZATION_CODE " + ActivityResult.shown("AUTHORIZATION_CODE", code)
        guard case .string(let text) = code else { return .violated(observed: shown + ", not a String") }
        return CheckOutcome(!text.isEmpty, shown)
    }
}
