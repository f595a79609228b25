import AppFlipModel
import AppFlipSyntax

/// `legacy_tls: refused`: offered only TLS 1.0 and 1.1 (a `tls: legacy` probe), the server takes neither. An alert,
/// a close or silence holds; a ServerHello that picks TLS 1.1 or older (or SSL 3.0) fails. RFC 8996 §2-§3: servers
/// MUST NOT negotiate TLS 1.0 or 1.1.
package struct LegacyTLSCheck: CheckKind {
    package static let key = "legacy_tls"
    package static let documentation = CheckDocumentation(
        .response, values: "`refused`",
        holdsWhen:
            "on a `tls: legacy` probe: the server answers a ClientHello offering only TLS 1.0 and 1.1 with an alert or a close, never a ServerHello picking either"
    )

    package static func read(_ node: Node, reader: inout NodeReader) -> [LegacyTLSCheck]? {
        reader.keyword(node, key, "refused") ? [LegacyTLSCheck()] : nil
    }

    package var scope: CheckScope { .transport }

    package var traits: CheckTraits { CheckTraits(transportProbe: .legacyTLS) }

    package func expected(in context: Template.Context) -> String {
        "TLS 1.0 and 1.1 refused: an alert or a close, no ServerHello picking them"
    }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        guard case .handshake(let handshake) = observation else {
            return .notApplicable(reason: "only a `tls: legacy` probe shows which TLS versions a server takes")
        }
        return CheckOutcome(!handshake.acceptedObsoleteVersion, observation.summary)
    }
}
