import AppFlipModel
import AppFlipSyntax

/// `finished: true`: the activity called `finish()` after setting its result (Android App Flip). One that stays
/// leaves the user stuck on it, and Google has no result until they back out (Google's sample does this on a wrong
/// caller). Every other Android check is not applicable to an unfinished activity, so this is the one blamed.
package struct FinishedCheck: ActivityCheck {
    package static let key = "finished"
    package static let documentation = CheckDocumentation(.activity, values: "`true`", holdsWhen: "the activity finished")

    package static func read(_ node: Node, reader: inout NodeReader) -> [FinishedCheck]? {
        reader.word(node, key, is: "true") ? [FinishedCheck()] : nil
    }

    package var scope: CheckScope { .activity }
    package var traits: CheckTraits { CheckTraits(judgesUnfinishedActivity: true) }

    package func expected(in context: Template.Context) -> String { "the activity finishes with its result" }

    package func evaluate(_ result: ActivityResult, in context: Template.Context) -> CheckOutcome {
        return CheckOutcome(
            result.finished,
            result.finished ? "finished" : "the activity did not finish (result \(ActivityResult.name(of: result.resultCode)) not delivered)")
    }
}
