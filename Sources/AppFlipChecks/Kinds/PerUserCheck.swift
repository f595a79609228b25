import AppFlipDigest
import AppFlipModel
import AppFlipSyntax
import Foundation

/// `per_user: NAME`: an answer that depends on whose token was used. NAME holds three captures in order: one
/// user's answer twice (two separate grants), then another user's. Holds when the first two agree and the third
/// differs; when one user's two answers already differ (a timestamp, a request ID), the answers cannot tell users
/// apart and the check does not apply. Values are shown only as digests: they are a user's data.
package struct PerUserCheck: CheckKind {
    package static let key = "per_user"
    package static let documentation = CheckDocumentation(
        .response, values: "a captured name",
        holdsWhen:
            "of three values captured under the name (one user twice, then another user), the first two are equal and the third differs; not applicable when the first two differ"
    )

    package var name: String

    package static func read(_ node: Node, reader: inout NodeReader) -> [PerUserCheck]? {
        reader.capturedName(node, key).map { [PerUserCheck(name: $0)] }
    }

    package var scope: CheckScope { .samples }

    package var traits: CheckTraits { CheckTraits(sampleName: name) }

    package func expected(in context: Template.Context) -> String {
        "\(name): the same for one user's two grants, different for another user's"
    }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        let values = context.samples[name] ?? []
        guard values.count >= 3 else { return .violated(observed: "\(values.count) value(s) captured as \(name); the check needs 3") }
        // JSON answers compare by content: members in another order are the same answer.
        let (first, again, other) = (Self.canonical(values[0]), Self.canonical(values[1]), Self.canonical(values[2]))
        let shown = [first, again, other].map(Self.digest).joined(separator: ", ")
        guard first == again else {
            return .notApplicable(reason: "the same user's two answers differ (\(shown)), so they cannot tell users apart")
        }
        return CheckOutcome(other != first, "first user \(Self.digest(first)) twice, second user \(Self.digest(other))")
    }

    /// A JSON text with its object members sorted, or the text itself when it is not JSON.
    static func canonical(_ text: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]),
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        else { return text }
        return String(decoding: data, as: UTF8.self)
    }

    /// A short digest, so a user's data never shows in a report.
    static func digest(_ value: String) -> String {
        "sha256:" + String(SHA256.hexDigest(value.utf8).prefix(8))
    }
}
