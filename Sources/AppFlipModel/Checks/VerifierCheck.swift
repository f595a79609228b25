import AppFlipSyntax

/// `verifier: present` or `well-formed`: the step's code exchange carries one code_verifier, or a well-formed one
/// (RFC 7636 §4.1). Judged on the request as sent, whatever the server answered.
package struct VerifierCheck: Check {
    package enum Expectation: String, Sendable, Hashable, CaseIterable {
        case present
        case wellFormed = "well-formed"
        /// Nowhere but the token request's body: not in a URL, not re-sent after a redirect (RFC 7636 §4.5).
        case onlyToTokenEndpoint = "only-to-token-endpoint"
    }

    package static let key = "verifier"
    package static let documentation = CheckDocumentation(
        .native, values: "`present`, `well-formed`, `only-to-token-endpoint`",
        holdsWhen: "the step's code exchange carries one code_verifier; well-formed: 43 to 128 characters of A-Z a-z 0-9 - . _ ~; "
            + "only-to-token-endpoint: no other request of the step (a URL, a followed redirect) carries it")

    package let expectation: Expectation

    package static func read(_ node: Node, reader: inout NodeReader) -> [VerifierCheck]? {
        reader.enumValue(node, "'verifier'", as: Expectation.self).map { [VerifierCheck(expectation: $0)] }
    }

    package var scope: CheckScope { .native }

    package func expected(in context: Template.Context) -> String {
        switch expectation {
        case .present: "a code_verifier in the code exchange"
        case .wellFormed: "a code_verifier of 43-128 unreserved characters"
        case .onlyToTokenEndpoint: "the code_verifier only in the token request's body"
        }
    }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        guard case .native(let native) = observation else { return .notApplicable(reason: "not a native-client step") }
        guard let exchange = native.codeExchange else { return .notApplicable(reason: "the app made no code exchange") }
        let found = exchange.form.all(named: "code_verifier")
        guard found.count == 1, let bytes = found[0].value, let verifier = String(validating: bytes, as: UTF8.self) else {
            // A missing verifier is `present`'s finding (NAT-PKCE-006), not a malformed one.
            if expectation != .present, found.isEmpty { return .notApplicable(reason: "the code exchange had no code_verifier (NAT-PKCE-006)") }
            return .violated(observed: found.isEmpty ? "no code_verifier" : "code_verifier \(found.count) times, or not text")
        }
        if expectation == .onlyToTokenEndpoint {
            // The authorization request is the audit's (a code_verifier parameter, NAT-PKCE-007; plain's challenge is
            // the verifier itself, NAT-PKCE-004): here, every other request the step made.
            let elsewhere = native.requests.filter { request in
                request != exchange && request.path != "/authorize" && (request.target.contains(verifier) || String(decoding: request.body, as: UTF8.self).contains(verifier)
                    || request.target.contains(FormEncoding.encode(verifier)))
            }
            return CheckOutcome(elsewhere.isEmpty, elsewhere.isEmpty ? "only in the token request"
                                : "also sent to " + elsewhere.map { "\($0.method) \($0.path)" }.joined(separator: ", "))
        }
        guard expectation == .wellFormed else { return .held(observed: "code_verifier of \(verifier.utf8.count) characters") }
        return CheckOutcome(PKCE.isValidVerifier(verifier), "code_verifier of \(verifier.utf8.count) characters"
                            + (PKCE.isValidVerifier(verifier) ? "" : ", not all unreserved or the wrong length"))
    }
}
