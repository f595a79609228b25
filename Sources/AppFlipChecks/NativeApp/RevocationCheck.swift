import AppFlipBase
import AppFlipModel
import AppFlipSyntax

/// `revocation: sent`: during the step the app asked the revocation endpoint to revoke a token (RFC 7009 §2.1).
package struct RevocationCheck: NativeCheck {
    package static let key = "revocation"
    package static let documentation = CheckDocumentation(
        .native, values: "`sent`", holdsWhen: "the app sent the revocation endpoint a form POST with a token")

    package static func read(_ node: Node, reader: inout NodeReader) -> [RevocationCheck]? {
        reader.keyword(node, key, "sent") ? [RevocationCheck()] : nil
    }

    package var scope: CheckScope { .native }

    package func expected(in context: Template.Context) -> String { "a revocation request with a token" }

    package func evaluate(_ native: NativeObservation, in context: Template.Context) -> CheckOutcome {
        if let reason = native.needsTokensReason { return .notApplicable(reason: reason) }
        let revocations = native.requests.filter { $0.method == "POST" && $0.path == "/revoke" }
        // RFC 7009 §2.1 puts the token in the form body; Google documents it in the query of the POST
        // (`/revoke?token=…`): either is a revocation request.
        let inBody = revocations.contains { !($0.formValue("token") ?? "").isEmpty }
        let inQuery = revocations.contains { !(URLParts($0.target).parameters.singleText(named: "token") ?? "").isEmpty }
        let observed =
            revocations.isEmpty
            ? "no revocation request"
            : inBody
                ? "revocation requested (the token in the form body)"
                : inQuery
                    ? "revocation requested (the token in the query)"
                    : "a revocation request without a token"
        return CheckOutcome(inBody || inQuery, observed)
    }
}
