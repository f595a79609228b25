import AppFlipModel
import AppFlipSyntax

/// `token_request: none` or `well-formed`: the step made no code exchange at all (after a response it had to refuse,
/// RFC 8252 §8.9), or its code exchange has the shape RFC 6749 §4.1.3 and RFC 7636 §4.5 give it, or (`once`) no code
/// was sent to the token endpoint twice (RFC 6749 §4.1.2), as a client that retries a slow exchange would.
package struct TokenRequestCheck: NativeCheck {
    package enum Expectation: String, Sendable, Hashable, CaseIterable {
        case none
        case wellFormed = "well-formed"
        case once
    }

    package static let key = "token_request"
    package static let documentation = CheckDocumentation(
        .native, values: "`none`, `well-formed`, `once`",
        holdsWhen: "none: the app sent no code exchange in the step (a token request that carries no code and another grant, "
            + "such as client_credentials, is none); well-formed: a form POST with grant_type=authorization_code, "
            + "code and redirect_uri, each once, and one client: HTTP Basic, or client_id in the body (with client_secret or, "
            + "for a public client, alone), never both ways of authenticating, and the server did not refuse it for what it sent (the "
            + "verifier is NAT-PKCE-006's `verifier: present`); "
            + "once: no code was sent in more than one exchange (not judged without an exchange)")

    package let expectation: Expectation

    package static func read(_ node: Node, reader: inout NodeReader) -> [TokenRequestCheck]? {
        reader.enumValue(node, "'token_request'", as: Expectation.self).map { [TokenRequestCheck(expectation: $0)] }
    }

    package var scope: CheckScope { .native }

    package func expected(in context: Template.Context) -> String {
        switch expectation {
        case .none: "no code exchange"
        case .wellFormed: "a code exchange with grant_type, code, redirect_uri and its client (HTTP Basic or client_id)"
        case .once: "each code redeemed at most once"
        }
    }

    /// The grant types of `requests`, for the evidence.
    private static func grants(_ requests: [NativeServerRequest]) -> String {
        Set(requests.map { $0.formValue("grant_type") ?? "no grant_type" }).sorted().joined(separator: ", ")
    }

    package func evaluate(_ native: NativeObservation, in context: Template.Context) -> CheckOutcome {
        let exchanges = native.requests.filter { $0.method == "POST" && $0.path == "/token" && $0.formValue("grant_type") != "refresh_token" }
        switch expectation {
        case .none:
            // A code exchange is what redeems a code: another grant (client_credentials) after a refused response
            // exchanges nothing from it.
            let redeeming = exchanges.filter { $0.formValue("grant_type") == "authorization_code" || $0.formValue("code") != nil }
            let others = exchanges.count - redeeming.count
            let note = others == 0 ? "" : " (\(others) other token request\(others == 1 ? "" : "s"), with no code: \(Self.grants(exchanges)))"
            return CheckOutcome(
                redeeming.isEmpty,
                (redeeming.isEmpty
                    ? "no code exchange"
                    : "\(redeeming.count) code exchange\(redeeming.count == 1 ? "" : "s")") + note)
        case .wellFormed:
            guard let exchange = exchanges.first else { return .notApplicable(reason: "the app made no code exchange") }
            var problems: [String] = []
            if !(exchange.contentType ?? "").lowercased().hasPrefix("application/x-www-form-urlencoded") {
                problems.append("Content-Type \(exchange.contentType ?? "(none)")")
            }
            if exchange.formValue("grant_type") != "authorization_code" { problems.append("grant_type is not authorization_code") }
            for name in ["code", "redirect_uri"] where (exchange.formValue(name) ?? "").isEmpty {
                problems.append("no single \(name)")
            }
            var client = ""
            switch exchange.clientIdentity {
            case .basic(_, let secret):
                client = secret.isEmpty ? " (the client by HTTP Basic, with no secret: a public client)" : " (the client by HTTP Basic)"
            case .body(_, let secret): client = secret == nil ? " (client_id in the body, no secret)" : " (client_id and client_secret in the body)"
            case .none: problems.append("no client: neither client_id in the body nor HTTP Basic")
            case .conflicting(let why): problems.append(why)
            }
            // The test authorization server accepts every well-formed way of naming the client; when it refused the
            // app's exchange for what the app sent (a wrong secret, a code it never issued, another client's code),
            // the app holds no token, and the checks that need one do not apply: the refusal is blamed here.
            if let refused = native.refusedExchange { problems.append("the server refused it (\(refused)), so the app never signed in") }
            return CheckOutcome(problems.isEmpty, problems.isEmpty ? "a well-formed code exchange" + client : problems.joined(separator: "; "))
        case .once:
            guard !exchanges.isEmpty else { return .notApplicable(reason: "the app made no code exchange") }
            let codes = exchanges.map { $0.formValue("code") ?? "" }
            let repeated = Set(codes.filter { code in codes.filter { $0 == code }.count > 1 }).count
            return CheckOutcome(
                repeated == 0,
                repeated == 0
                    ? "\(exchanges.count) code exchange\(exchanges.count == 1 ? "" : "s"), no code sent twice"
                    : "\(exchanges.count) code exchanges; \(repeated == 1 ? "a code was" : "\(repeated) codes were") sent more than once")
        }
    }
}
