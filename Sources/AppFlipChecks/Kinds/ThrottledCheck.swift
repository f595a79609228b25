import AppFlipModel
import AppFlipSyntax

/// `throttled: within-burst`: on a `burst:` request, the server showed a sign of throttling before the burst ran
/// out (429, 503, Retry-After, a growing delay, or connections refused after the first answer).
package struct ThrottledCheck: CheckKind {
    package static let key = "throttled"
    package static let documentation = CheckDocumentation(
        .response, values: "`within-burst`",
        holdsWhen:
            "on a `burst:` request: some answer was a 429 or 503, carried Retry-After, took a second longer than the first and twice as long, or the connection failed after the first answer"
    )

    package static func read(_ node: Node, reader: inout NodeReader) -> [ThrottledCheck]? {
        reader.keyword(node, key, "within-burst") ? [ThrottledCheck()] : nil
    }

    package var scope: CheckScope { .transport }

    package var traits: CheckTraits { CheckTraits(judgesBurst: true) }

    package func expected(in context: Template.Context) -> String {
        "a sign of throttling before the burst runs out"
    }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        switch observation {
        case .http(let response):
            guard let burst = response.burst else { return .notApplicable(reason: "only a `burst:` request shows throttling") }
            return CheckOutcome(burst.sign != nil, burst.summary)
        default:
            return .notApplicable(reason: "only a `burst:` request shows throttling")
        }
    }
}
