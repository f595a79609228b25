import AppFlipBase
import AppFlipModel
import AppFlipSyntax

/// `redirect_uri: repeated`: the code exchange's redirect_uri is the authorization request's, byte for byte once
/// decoded (RFC 6749 §4.1.3).
package struct RedirectRepeatedCheck: NativeCheck {
    package static let key = "redirect_uri"
    package static let documentation = CheckDocumentation(
        .native, values: "`repeated`", holdsWhen: "the code exchange's redirect_uri equals the authorization request's")

    package static func read(_ node: Node, reader: inout NodeReader) -> [RedirectRepeatedCheck]? {
        reader.keyword(node, key, "repeated") ? [RedirectRepeatedCheck()] : nil
    }

    package var scope: CheckScope { .native }

    package func expected(in context: Template.Context) -> String { "the same redirect_uri in the code exchange" }

    package func evaluate(_ native: NativeObservation, in context: Template.Context) -> CheckOutcome {
        guard let exchange = native.codeExchange else { return .notApplicable(reason: "the app made no code exchange") }
        let requested = native.authorizationURL.flatMap { URLParts($0).parameters.all(named: "redirect_uri").first?.value }
        let repeated = exchange.form.all(named: "redirect_uri").first?.value
        let shown = { (bytes: [UInt8]?) in bytes.map { ByteText.display($0, limit: 120) } ?? "none" }
        return CheckOutcome(
            requested != nil && requested == repeated,
            "requested \(shown(requested)), exchanged with \(shown(repeated))")
    }
}
