import AppFlipModel
import AppFlipSyntax

/// `forward_secrecy: agreed`: on a `tls: certificate` probe, offered the suites current clients offer, the server agrees
/// a key exchange with forward secrecy: TLS 1.3, or an ECDHE or DHE suite of TLS 1.2. RFC 9325 §4.2 (BCP 195):
/// implementations SHOULD support and prefer cipher suites offering forward secrecy, so that a key stolen later
/// does not open the traffic recorded before; a static RSA key exchange warns.
package struct ForwardSecrecyCheck: CheckKind {
    package static let key = "forward_secrecy"
    package static let documentation = CheckDocumentation(
        .response, values: "`agreed`",
        holdsWhen: "on a `tls: certificate` probe: the key exchange agreed gives forward secrecy (TLS 1.3, or TLS 1.2 with an ECDHE or DHE suite)")

    package static func read(_ node: Node, reader: inout NodeReader) -> [ForwardSecrecyCheck]? {
        reader.keyword(node, key, "agreed") ? [ForwardSecrecyCheck()] : nil
    }

    package var scope: CheckScope { .transport }

    package var traits: CheckTraits { CheckTraits(transportProbe: .certificate) }

    package func expected(in context: Template.Context) -> String {
        "a key exchange with forward secrecy (TLS 1.3, or ECDHE or DHE in TLS 1.2)"
    }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        guard case .handshake(let handshake) = observation, let secret = handshake.forwardSecret else {
            return .notApplicable(reason: "only a whole handshake (`tls: certificate`) shows the key exchange a server agrees")
        }
        return CheckOutcome(secret, "\(handshake.answer)" + (secret ? "" : ": a static RSA key exchange, no forward secrecy"))
    }
}
