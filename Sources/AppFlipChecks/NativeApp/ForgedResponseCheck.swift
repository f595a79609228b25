import AppFlipBase
import AppFlipModel
import AppFlipSyntax

/// `forged_response: refused`: a redirect whose state is not the one the app sent (altered, or missing) is refused
/// and its code never exchanged (RFC 8252 §8.9, RFC 6749 §10.12). An app that sent no state relies on PKCE, which
/// RFC 9700 §2.1 allows when the server supports it (Google does): the check then does not apply, and the missing
/// state is NAT-STATE-001's warning.
package struct ForgedResponseCheck: NativeCheck {
    package static let key = "forged_response"
    package static let documentation = CheckDocumentation(
        .native, values: "`refused`",
        holdsWhen: "the app answers rejected and sends no code exchange (not judged when its request carried no state: PKCE protects it)")

    package static func read(_ node: Node, reader: inout NodeReader) -> [ForgedResponseCheck]? {
        reader.keyword(node, key, "refused") ? [ForgedResponseCheck()] : nil
    }

    package var scope: CheckScope { .native }

    package func expected(in context: Template.Context) -> String { "the response refused and its code never exchanged" }

    package func evaluate(_ native: NativeObservation, in context: Template.Context) -> CheckOutcome {
        let state = native.authorizationURL.map { URLParts($0).parameters.all(named: "state") } ?? []
        guard !state.isEmpty else {
            return .notApplicable(reason: "the app sent no state, relying on PKCE (RFC 9700 §2.1); NAT-STATE-001 warns about it")
        }
        let exchanged = native.codeExchange != nil
        // A loopback listener closed after its callback refuses the redirect before the app sees it.
        let refused = native.answer?.action == .rejected || (native.answer == nil && native.refusedByClosedListener)
        return CheckOutcome(
            refused && !exchanged,
            native.summary + (exchanged ? " (the code was exchanged)" : "")
                + (native.refusedByClosedListener ? " (its closed listener refused the redirect)" : ""))
    }
}
