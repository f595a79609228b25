import AppFlipBase
import AppFlipModel
import AppFlipSyntax

/// `audit: NAT-PKCE-004`: what the app's authorization request URL shows about that requirement holds, as
/// `validate-url` judges it (AuthorizationRequestAudit). The value names the requirement whose part of the audit
/// applies; the group's own requirement carries the verdict (for a downgrade after an error, NAT-PKCE-005 may judge
/// NAT-PKCE-004's part).
package struct AuditCheck: NativeCheck {
    package static let key = "audit"
    package static let documentation = CheckDocumentation(
        .native, values: "a NAT-* requirement ID that `validate-url` judges",
        holdsWhen:
            "the app's authorization request URL holds that requirement's part of the audit (a private-use scheme noted under NAT-REDIR-003 holds)")

    package let requirementID: String

    /// The requirements the audit has checks for.
    static let audited: Set<String> = [
        "NAT-REQ-001", "NAT-REQ-002", "NAT-PKCE-003", "NAT-PKCE-004", "NAT-PKCE-006", "NAT-PKCE-007",
        "NAT-STATE-001", "NAT-REDIR-001", "NAT-REDIR-002", "NAT-REDIR-003", "NAT-REDIR-004",
        "NAT-REDIR-004-S", "NAT-REDIR-005",
    ]

    /// The parts of the audit that every authorization request shows (the parameters and their encoding, PKCE, the
    /// state, the redirect URI), judged on every sign-in of every case, not only where a case names them: a defect that
    /// shows in some requests only (a challenge whose alphabet is wrong when a `+` or `/` happens to come out) is then
    /// caught in every run. Each grades at its own level (the SHOULDs warn).
    package static let everySignIn = [
        "NAT-REQ-001", "NAT-REQ-002", "NAT-PKCE-003", "NAT-PKCE-004", "NAT-PKCE-006", "NAT-PKCE-007", "NAT-STATE-001",
        "NAT-REDIR-001", "NAT-REDIR-002", "NAT-REDIR-003", "NAT-REDIR-004", "NAT-REDIR-004-S",
    ]

    /// The check for `requirementID`'s part of the audit (one of `audited`).
    package static func judging(_ requirementID: String) -> AnyCheck { AnyCheck(AuditCheck(requirementID: requirementID)) }

    package static func read(_ node: Node, reader: inout NodeReader) -> [AuditCheck]? {
        guard let scalar = reader.scalar(node, "'audit'") else { return nil }
        guard audited.contains(scalar.text) else {
            let hint = Suggestion.closest(to: scalar.text, among: Array(audited)).map { " (did you mean '\($0)'?)" } ?? ""
            reader.error(at: scalar.location, "'audit' takes a requirement the URL audit judges\(hint)")
            return nil
        }
        return [AuditCheck(requirementID: scalar.text)]
    }

    package var scope: CheckScope { .native }

    package var traits: CheckTraits { CheckTraits(judgesOnlyTheRequest: true) }

    package func expected(in context: Template.Context) -> String { "the authorization request holds \(requirementID) (URL audit)" }

    package func evaluate(_ native: NativeObservation, in context: Template.Context) -> CheckOutcome {
        guard let url = native.authorizationURL else { return .notApplicable(reason: "the app opened no authorization request") }
        let results = AuthorizationRequestAudit().audit(url).filter { $0.requirement.id == requirementID && $0.isApplicable }
        guard !results.isEmpty else {
            let reason = AuthorizationRequestAudit().audit(url).first { $0.requirement.id == requirementID }?.notApplicable
            return .notApplicable(reason: reason ?? "the audit has nothing on \(requirementID) for this URL")
        }
        let violated = results.filter { $0.verdict != .pass && $0.verdict != .info }
        let observed = (violated.isEmpty ? results : violated).map(\.observed).joined(separator: "; ")
        return CheckOutcome(violated.isEmpty, observed)
    }
}
