import AppFlipBase
import AppFlipModel
import AppFlipSyntax

/// `pkce: verified`: the code exchange's verifier, hashed with S256, is the challenge the app sent in its
/// authorization request (RFC 7636 §4.2, §4.6): the app computed the challenge right, from the verifier it kept.
/// `pkce: not-downgraded`: after an earlier S256 request of the case, this one still uses S256 (RFC 7636 §7.2).
/// `pkce: s256-or-refused`: the request uses S256 whatever the server's metadata offers, or the app refused to sign
/// in at all (RFC 7636 §4.2: a client that can use S256 must; S256 is mandatory to implement on the server).
package struct PKCEMatchCheck: NativeCheck {
    package enum Expectation: String, Sendable, Hashable, CaseIterable {
        case verified
        case notDowngraded = "not-downgraded"
        case s256OrRefused = "s256-or-refused"
    }

    package static let key = "pkce"
    package static let documentation = CheckDocumentation(
        .native, values: "`verified`, `not-downgraded`, `s256-or-refused`",
        holdsWhen: "verified: BASE64URL(SHA256(code_verifier)) of the code exchange equals the request's code_challenge; "
            + "not-downgraded: the request uses S256 with a challenge when the case's previous one did (not judged when it did not); "
            + "s256-or-refused: the request uses S256, or the app answered the sign-in with rejected and opened nothing (not judged "
            + "for a request without a challenge: NAT-PKCE-006's)")

    package let expectation: Expectation

    package static func read(_ node: Node, reader: inout NodeReader) -> [PKCEMatchCheck]? {
        reader.enumValue(node, "'pkce'", as: Expectation.self).map { [PKCEMatchCheck(expectation: $0)] }
    }

    package var scope: CheckScope { .native }

    package func expected(in context: Template.Context) -> String {
        switch expectation {
        case .verified: "S256 of the verifier equals the challenge"
        case .notDowngraded: "S256 again, as in the previous request"
        case .s256OrRefused: "S256 in the request, or no sign-in at all"
        }
    }

    private static func method(_ url: String?) -> String? {
        guard let url else { return nil }
        let parameters = URLParts(url).parameters
        guard !parameters.all(named: "code_challenge").isEmpty else { return "none" }
        return parameters.all(named: "code_challenge_method").first?.value.map { String(decoding: $0, as: UTF8.self) } ?? "plain (by default)"
    }

    package func evaluate(_ native: NativeObservation, in context: Template.Context) -> CheckOutcome {
        if expectation == .s256OrRefused {
            guard let url = native.authorizationURL else {
                return CheckOutcome(
                    native.answer?.action == .rejected,
                    "no authorization request; the app answered "
                        + (native.answer.map { $0.action.rawValue + ($0.reason.map { ": \($0)" } ?? "") } ?? "nothing"))
            }
            let method = Self.method(url) ?? "none"
            // No PKCE at all is NAT-PKCE-006's (a challenge in every request), not a method chosen from the metadata.
            guard method != "none" else { return .notApplicable(reason: "the request carries no code_challenge (NAT-PKCE-006)") }
            return CheckOutcome(method == "S256", "the request uses " + method)
        }
        if expectation == .notDowngraded {
            guard let previous = Self.method(native.previousAuthorizationURL) else {
                return .notApplicable(reason: "no earlier authorization request in the case")
            }
            guard previous == "S256" else {
                return .notApplicable(reason: "the earlier request used \(previous), so this is no downgrade (NAT-PKCE-004 judges it)")
            }
            let now = Self.method(native.authorizationURL) ?? "no request"
            return CheckOutcome(now == "S256", "earlier S256, now \(now)")
        }
        guard let exchange = native.codeExchange else { return .notApplicable(reason: "the app made no code exchange") }
        let parameters = native.authorizationURL.map { URLParts($0).parameters } ?? []
        guard let challenge = parameters.all(named: "code_challenge").first?.value.flatMap({ String(validating: $0, as: UTF8.self) }) else {
            return .notApplicable(reason: "the authorization request had no code_challenge (NAT-PKCE-006)")
        }
        guard parameters.all(named: "code_challenge_method").first?.value == Array("S256".utf8) else {
            return .notApplicable(reason: "the authorization request did not use S256 (NAT-PKCE-004)")
        }
        guard let verifier = exchange.formValue("code_verifier") else {
            return .notApplicable(reason: "the code exchange had no single code_verifier (NAT-PKCE-006)")
        }
        let computed = PKCE.s256Challenge(for: verifier)
        return CheckOutcome(
            computed == challenge,
            computed == challenge
                ? "the S256 of the verifier is the challenge"
                : "S256 of the verifier is \(computed), the challenge was \(challenge)")
    }
}
