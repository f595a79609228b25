import AppFlipModel
import AppFlipSyntax

/// `error_type: 2 | [1, 3]`: the result's int `ERROR_TYPE` (Android App Flip: 1 recoverable, 2 unrecoverable,
/// 3 invalid request). Judged on an int only: a value of another type, or no data intent, is blamed where it belongs
/// (`error_result`), not here.
package struct ErrorTypeCheck: ActivityCheck {
    package static let key = "error_type"
    package static let documentation = CheckDocumentation(
        .activity, values: "`1`, `2`, `3`, or a list",
        holdsWhen: "the data intent's int `ERROR_TYPE` is one of them (not applicable to a value of another type, or to no data intent)")

    package var types: [Int]

    package static func read(_ node: Node, reader: inout NodeReader) -> [ErrorTypeCheck]? {
        ActivityIntegers.read(node, key, range: ActivityResult.errorTypes, reader: &reader).map { [ErrorTypeCheck(types: $0)] }
    }

    package var scope: CheckScope { .activity }

    package func expected(in context: Template.Context) -> String { "ERROR_TYPE " + ActivityIntegers.either(types) }

    package func evaluate(_ result: ActivityResult, in context: Template.Context) -> CheckOutcome {
        ActivityIntegerExtra.judge("ERROR_TYPE", result, holds: types.contains)
    }
}
