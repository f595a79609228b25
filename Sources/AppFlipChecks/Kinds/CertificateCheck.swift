import AppFlipModel
import AppFlipSyntax

/// `certificate: valid`: on a `tls: certificate` probe, the endpoint's certificate is one every client of it accepts:
/// valid today, for the endpoint's host, and reached from a root through the certificates the server sends. One that
/// has expired, is not yet valid or names another host fails (RFC 6125 §6, RFC 5280 §6.1.3); so does a chain that
/// reaches a root only through an intermediate the run was given with `--ca-file` and the server does not send
/// (RFC 8446 §4.4.2: the server's Certificate message carries the chain, which clients need not complete).
package struct CertificateCheck: CheckKind {
    package static let key = "certificate"
    package static let documentation = CheckDocumentation(
        .response, values: "`valid`",
        holdsWhen:
            "on a `tls: certificate` probe: the certificate is valid today and for the endpoint's host, and the certificates the server sends lead to a root of the system's store or `--ca-file` without an intermediate only `--ca-file` holds"
    )

    package static func read(_ node: Node, reader: inout NodeReader) -> [CertificateCheck]? {
        reader.keyword(node, key, "valid") ? [CertificateCheck()] : nil
    }

    package var scope: CheckScope { .transport }

    package var traits: CheckTraits { CheckTraits(transportProbe: .certificate) }

    package func expected(in context: Template.Context) -> String {
        "a certificate valid today and for this host, the server sending every intermediate up to a root"
    }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        guard case .handshake(let handshake) = observation, let finding = handshake.certificate else {
            return .notApplicable(reason: "only a `tls: certificate` probe shows the certificate a server presents")
        }
        switch finding {
        case .valid: return CheckOutcome(true, observation.summary)
        case .invalid(let why), .incompleteChain(let why): return CheckOutcome(false, why)
        }
    }
}
