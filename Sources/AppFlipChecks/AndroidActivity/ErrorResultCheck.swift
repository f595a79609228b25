import AppFlipModel
import AppFlipSyntax

/// `error_result: well-formed`: an error result is App Flip's: -2 with a data intent carrying an int `ERROR_TYPE` of
/// 1, 2 or 3, an int `ERROR_CODE`, and `ERROR_DESCRIPTION` a String when sent. A result code that is none of -1, -2
/// and 0 is a malformed error. Not applicable to RESULT_OK (`ok_result` judges it) or RESULT_CANCELED.
package struct ErrorResultCheck: ActivityCheck {
    package static let key = "error_result"
    package static let documentation = CheckDocumentation(
        .activity, values: "`well-formed`",
        holdsWhen: "a -2 result has a data intent with an int `ERROR_TYPE` of 1-3, an int `ERROR_CODE` and a String `ERROR_DESCRIPTION` if any; "
            + "no result code but -1, -2 or 0 (not applicable to -1 and 0)")

    package static func read(_ node: Node, reader: inout NodeReader) -> [ErrorResultCheck]? {
        reader.word(node, key, is: "well-formed") ? [ErrorResultCheck()] : nil
    }

    package var scope: CheckScope { .activity }

    package func expected(in context: Template.Context) -> String {
        "an error as -2 with a data intent carrying int ERROR_TYPE 1, 2 or 3 and int ERROR_CODE (ERROR_DESCRIPTION a String)"
    }

    package func evaluate(_ result: ActivityResult, in context: Template.Context) -> CheckOutcome {
        switch result.resultCode {
        case ActivityResult.ok, ActivityResult.canceled:
            return .notApplicable(reason: "result \(ActivityResult.name(of: result.resultCode)) is not an error")
        case ActivityResult.error:
            break
        default:
            return .violated(observed: "result \(result.resultCode) is none of App Flip's results (-1, -2, 0); Google reads it as a failed flip")
        }
        guard result.data != nil else { return .violated(observed: "-2 with no data intent") }
        var problems: [String] = []
        switch result.extra("ERROR_TYPE") {
        case nil: problems.append("no ERROR_TYPE")
        case .int(let type)?: if !ActivityResult.errorTypes.contains(type) { problems.append("ERROR_TYPE \(type) is not 1, 2 or 3") }
        case let other?: problems.append("ERROR_TYPE is \(other.display), not an int")
        }
        switch result.extra("ERROR_CODE") {
        case nil: problems.append("no ERROR_CODE")
        case .int?: break
        case let other?: problems.append("ERROR_CODE is \(other.display), not an int")
        }
        if let description = result.extra("ERROR_DESCRIPTION"), description.string == nil {
            problems.append("ERROR_DESCRIPTION is \(description.display), not a String")
        }
        if !problems.isEmpty { return .violated(observed: "-2 with " + problems.joined(separator: "; ")) }
        let type = result.extra("ERROR_TYPE")?.int ?? 0
        let code = result.extra("ERROR_CODE")?.int ?? 0
        return .held(observed: "-2 with ERROR_TYPE \(type), ERROR_CODE \(code)")
    }
}
