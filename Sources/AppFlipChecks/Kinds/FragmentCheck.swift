import AppFlipBase
import AppFlipModel
import AppFlipRedaction
import AppFlipSyntax

/// `fragment: absent`: the opened URL has no `#`.
package struct FragmentCheck: CheckKind {
    package static let key = "fragment"
    package static let documentation = CheckDocumentation(.answer, values: "`absent`", holdsWhen: "the opened URL has no `#`")

    package var presence: Presence

    package static func read(_ node: Node, reader: inout NodeReader) -> [FragmentCheck]? {
        reader.keyword(node, key, "absent") ? [FragmentCheck(presence: .absent)] : nil
    }

    package var scope: CheckScope { .openedURL }

    package static var openedURLForm: String? { "`fragment`" }

    package func expected(in context: Template.Context) -> String { "no fragment" }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        let fragment = URLParts(observation.openedURL ?? "").fragment
        return CheckOutcome(fragment == nil, fragment.map { "fragment #\(ByteText.display(Redaction.redact(query: $0)))" } ?? "no fragment")
    }
}
