import AppFlipModel
import AppFlipSyntax

/// `universal_links_only: true`: the handler says it opens the result universal-links-only.
package struct UniversalLinksOnlyCheck: CheckKind {
    package static let key = "universal_links_only"
    package static let documentation = CheckDocumentation(
        .answer, values: "`true`", holdsWhen: "the answer says the URL is opened universal-links-only")

    package static func read(_ node: Node, reader: inout NodeReader) -> [UniversalLinksOnlyCheck]? {
        reader.keyword(node, key, "true") ? [UniversalLinksOnlyCheck()] : nil
    }

    package var scope: CheckScope { .openedURL }

    package static var openedURLForm: String? { "`universal_links_only`" }

    package func expected(in context: Template.Context) -> String { "opened universal-links-only" }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        guard case .link(let answer) = observation else { return .notApplicable(reason: "a redirect has no universal-links-only flag") }
        return CheckOutcome(
            answer.universalLinksOnly == true,
            answer.universalLinksOnly.map { "universal_links_only: \($0)" } ?? "universal_links_only not given")
    }
}
