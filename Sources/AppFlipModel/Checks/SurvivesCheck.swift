import AppFlipSyntax

/// `survives: true`: the activity handled the request without crashing (its adapter neither died nor closed its
/// output without an answer). A crash is still a result Google receives (RESULT_CANCELED, no data) and the other
/// checks judge that; this one says the crash itself is what the requirement forbids, where it does (malformed
/// extras: AF-ANDR-013). A start that failed, or a hang the suite ended, is never judged: the case is an error.
package struct SurvivesCheck: Check {
    package static let key = "survives"
    package static let documentation = CheckDocumentation(
        .activity, values: "`true`",
        holdsWhen: "the activity handled the request without crashing: its adapter neither died nor closed its output before answering")

    package static func read(_ node: Node, reader: inout NodeReader) -> [SurvivesCheck]? {
        reader.word(node, key, is: "true") ? [SurvivesCheck()] : nil
    }

    package var scope: CheckScope { .activity }

    package func expected(in context: Template.Context) -> String { "the activity survives the request" }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        guard case .activity(let result) = observation else { return .notApplicable(reason: "not an Android activity's result") }
        guard let crash = result.crash else { return .held(observed: "no crash: " + result.summary) }
        return .violated(observed: "the activity crashed: \(crash)")
    }
}
