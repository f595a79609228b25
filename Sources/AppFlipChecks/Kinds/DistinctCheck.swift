import AppFlipModel
import AppFlipSyntax

/// `distinct: NAME`: every value a repeated step captured as NAME differs from the others.
package struct DistinctCheck: CheckKind {
    package static let key = "distinct"
    package static let documentation = CheckDocumentation(
        .response, values: "a captured name", holdsWhen: "in a repeated step: every value captured under the name differs from the others")

    package var name: String

    package static func read(_ node: Node, reader: inout NodeReader) -> [DistinctCheck]? {
        reader.capturedName(node, key).map { [DistinctCheck(name: $0)] }
    }

    package var scope: CheckScope { .samples }

    package var traits: CheckTraits { CheckTraits(sampleName: name) }

    package func expected(in context: Template.Context) -> String { "every captured \(name) differs from the others" }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        let values = context.samples[name] ?? []
        // Too few values to compare: the answers that carried none fail their own checks; this one cannot be judged.
        guard values.count >= 2 else {
            return .notApplicable(
                reason: "\(values.count) value(s) of \(name) captured; comparing needs at least 2 (the answers' own checks say why)")
        }
        let unique = Set(values).count
        return CheckOutcome(unique == values.count, "\(unique) different among \(values.count) captured")
    }
}
