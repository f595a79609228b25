import AppFlipBase
import AppFlipModel
import AppFlipSyntax

/// `url_base: TEXT`: the opened URL up to `?` or `#` is exactly the text.
package struct URLBaseCheck: CheckKind {
    package static let key = "url_base"
    package static let documentation = CheckDocumentation(
        .answer, values: "text",
        holdsWhen: "the opened URL up to the first `?` or `#` equals the text exactly (usually `${sent.redirect_uri}`)")

    package var base: Template

    package static func read(_ node: Node, reader: inout NodeReader) -> [URLBaseCheck]? {
        guard let scalar = reader.scalar(node, "'url_base'"), let template = reader.template(scalar) else { return nil }
        return [URLBaseCheck(base: template)]
    }

    package var scope: CheckScope { .openedURL }

    package static var openedURLForm: String? { "`url_base`" }

    package func expected(in context: Template.Context) -> String {
        "the opened URL's base is exactly \(ByteText.display(base.resolve(in: context)))"
    }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        let parts = URLParts(observation.openedURL ?? "")
        let expected = base.resolve(in: context)
        let held = parts.base == expected
        return CheckOutcome(held, (held ? "base " : "base is ") + ByteText.display(String(parts.base)))
    }
}
