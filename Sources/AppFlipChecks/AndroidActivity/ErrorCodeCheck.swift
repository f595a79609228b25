import AppFlipModel
import AppFlipSyntax

/// `error_code: 13`: the result's int `ERROR_CODE` (Android App Flip; 13 is the user declining consent, the one
/// value Google's code names). Judged on an int only, as `error_type` is.
package struct ErrorCodeCheck: ActivityCheck {
    package static let key = "error_code"
    package static let documentation = CheckDocumentation(
        .activity, values: "an integer, or a list",
        holdsWhen: "the data intent's int `ERROR_CODE` is one of them (not applicable to a value of another type, or to no data intent)")

    package var codes: [Int]

    package static func read(_ node: Node, reader: inout NodeReader) -> [ErrorCodeCheck]? {
        ActivityIntegers.read(node, key, range: 0...1_000, reader: &reader).map { [ErrorCodeCheck(codes: $0)] }
    }

    package var scope: CheckScope { .activity }

    package func expected(in context: Template.Context) -> String { "ERROR_CODE " + ActivityIntegers.either(codes) }

    package func evaluate(_ result: ActivityResult, in context: Template.Context) -> CheckOutcome {
        ActivityIntegerExtra.judge("ERROR_CODE", result, holds: codes.contains)
    }
}
