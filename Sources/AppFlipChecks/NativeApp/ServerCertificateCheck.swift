import AppFlipBase
import AppFlipModel
import AppFlipSyntax

/// `server_certificate: refused`: with the token endpoint presenting a certificate the app must refuse (from a CA it
/// was not given, expired, or for another host), no request reaches it: the app stops, with no code or verifier sent
/// (RFC 6749 §10.9: the client validates the server's certificate as RFC 6125 defines). A request that arrives over
/// that certificate is one the app sent after accepting it, whatever it carries.
package struct ServerCertificateCheck: NativeCheck {
    package static let key = "server_certificate"
    package static let documentation = CheckDocumentation(
        .native, values: "`refused`",
        holdsWhen: "the step's token endpoint presents a certificate the app must refuse (`token_certificate` other than trusted) and "
            + "no request of the step reaches it over that certificate (not judged when the redirect never reached the app)")

    package init() {}

    package static func read(_ node: Node, reader: inout NodeReader) -> [ServerCertificateCheck]? {
        reader.keyword(node, key, "refused") ? [ServerCertificateCheck()] : nil
    }

    package var scope: CheckScope { .native }

    package func expected(in context: Template.Context) -> String {
        "the certificate refused: no request sent over it"
    }

    package func evaluate(_ native: NativeObservation, in context: Template.Context) -> CheckOutcome {
        guard let certificate = native.tokenCertificate, let flaw = certificate.flaw else {
            return .notApplicable(reason: "the step's token endpoint presents no certificate the app must refuse")
        }
        if let undelivered = native.undelivered { return .notApplicable(reason: NativeObservation.undeliveredReason(undelivered)) }
        let accepted = native.requests.filter { $0.certificate == certificate }
        guard accepted.isEmpty else {
            let sent = accepted.map { request in
                let carried = ["code", "code_verifier", "refresh_token", "token"].filter {
                    request.formValue($0) != nil || URLParts(request.target).parameters.singleText(named: $0) != nil
                }
                return "\(request.method) \(request.path)" + (carried.isEmpty ? "" : " (" + carried.joined(separator: ", ") + ")")
            }
            return .violated(observed: "the app accepted a certificate \(flaw), and sent " + sent.joined(separator: ", "))
        }
        var handshakes: [String] = []
        if native.failedHandshakeCount > 0 {
            let count = native.failedHandshakeCount
            handshakes.append(
                "it broke off \(count == 1 ? "the TLS handshake" : "\(count) TLS handshakes")"
                    + (native.failedHandshakes.first.map { " (the server saw: \($0))" } ?? ""))
        }
        if native.completedHandshakeCount > 0 {
            let count = native.completedHandshakeCount
            handshakes.append(
                "it completed \(count == 1 ? "a TLS handshake" : "\(count) TLS handshakes") and closed the connection without a request")
        }
        if handshakes.isEmpty { handshakes.append("it made no TLS connection to the token endpoint") }
        return .held(observed: "nothing sent over a certificate \(flaw): " + handshakes.joined(separator: "; ") + "; " + native.summary)
    }
}
