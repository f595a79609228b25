import AppFlipModel
import AppFlipSyntax

/// `survives: true`: the app handled the request without crashing (its adapter neither died nor closed its output
/// without an answer), in a link step or an intent step. A crash is still what Google's app receives (nothing opened
/// for a link; RESULT_CANCELED with no data for an activity) and the other checks judge that; this one says the
/// crash itself is what the requirement forbids, where it does (malformed input: AF-LINK-023, AF-ANDR-013). A start
/// that failed, or a hang the suite ended, is never judged: the case is an error.
package struct SurvivesCheck: CheckKind {
    package static let key = "survives"
    package static let documentation = CheckDocumentation(
        .activity, values: "`true`",
        holdsWhen: "the activity (or, in a link step, the app) handled the request without crashing: its adapter neither died nor closed "
            + "its output before answering")

    package static func read(_ node: Node, reader: inout NodeReader) -> [SurvivesCheck]? {
        reader.word(node, key, is: "true") ? [SurvivesCheck()] : nil
    }

    /// The answer as a whole, whichever contract gave it (a link step's or an intent step's: `judgesTheProcess`).
    package var scope: CheckScope { .answer }
    package var traits: CheckTraits { CheckTraits(judgesTheProcess: true) }

    package func expected(in context: Template.Context) -> String { "the app survives the request" }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        switch observation {
        case .activity(let result):
            guard let crash = result.crash else { return .held(observed: "no crash: " + result.summary) }
            return .violated(observed: "the activity crashed: \(crash)")
        case .link(let answer):
            guard let crash = answer.crash else { return .held(observed: "no crash: " + observation.summary) }
            return .violated(observed: "the app crashed: \(crash)")
        default:
            return .notApplicable(reason: "judged of a link handler or \(ActivityResult.stepNoun)")
        }
    }
}
