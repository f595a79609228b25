import AppFlipModel
import AppFlipSyntax

/// `result_code: -1 | [-2, 0]`: the result code the partner's activity set (Android App Flip).
package struct ResultCodeCheck: ActivityCheck {
    package static let key = "result_code"
    package static let documentation = CheckDocumentation(
        .activity, values: "`-1`, `-2`, `0`, or a list",
        holdsWhen: "the activity set one of them (-1 RESULT_OK, -2 App Flip's error, 0 RESULT_CANCELED)")

    package var codes: [Int]

    package static func read(_ node: Node, reader: inout NodeReader) -> [ResultCodeCheck]? {
        ActivityIntegers.read(node, key, range: -1_000...1_000, reader: &reader).map { [ResultCodeCheck(codes: $0)] }
    }

    package var scope: CheckScope { .activity }

    package func expected(in context: Template.Context) -> String {
        "result " + ActivityIntegers.either(codes, naming: ActivityResult.name(of:))
    }

    package func evaluate(_ result: ActivityResult, in context: Template.Context) -> CheckOutcome {
        return CheckOutcome(codes.contains(result.resultCode), "result " + ActivityResult.name(of: result.resultCode))
    }
}
