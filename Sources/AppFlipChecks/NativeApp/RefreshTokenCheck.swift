import AppFlipModel
import AppFlipSyntax

/// `refresh_token: latest`: the step's refresh request presents the refresh token the server issued last, so a
/// rotated token replaced the old one (RFC 6749 §6, §10.4).
package struct RefreshTokenCheck: NativeCheck {
    package static let key = "refresh_token"
    package static let documentation = CheckDocumentation(
        .native, values: "`latest`", holdsWhen: "the step's refresh request presents the refresh token issued last before it")

    package static func read(_ node: Node, reader: inout NodeReader) -> [RefreshTokenCheck]? {
        reader.keyword(node, key, "latest") ? [RefreshTokenCheck()] : nil
    }

    package var scope: CheckScope { .native }

    package func expected(in context: Template.Context) -> String { "the latest refresh token" }

    package func evaluate(_ native: NativeObservation, in context: Template.Context) -> CheckOutcome {
        guard let refresh = native.requests.first(where: { $0.isTokenRequest(grant: "refresh_token") }) else {
            return .notApplicable(reason: "the app sent no refresh request")
        }
        guard let latest = native.refreshTokensBefore.last else { return .notApplicable(reason: "no refresh token was issued before") }
        let presented = refresh.formValue("refresh_token")
        let position = presented.flatMap { native.refreshTokensBefore.firstIndex(of: $0) }
        let observed =
            presented == latest
            ? "the latest refresh token"
            : position.map { "refresh token \($0 + 1) of \(native.refreshTokensBefore.count) issued (a replaced one)" }
                ?? "a refresh token the server never issued"
        return CheckOutcome(presented == latest, observed)
    }
}
