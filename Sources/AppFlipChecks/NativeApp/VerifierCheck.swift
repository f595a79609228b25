import AppFlipBase
import AppFlipModel
import AppFlipRedaction
import AppFlipSyntax

/// `verifier: present` or `well-formed`: the step's code exchange carries one code_verifier, or a well-formed one
/// (RFC 7636 §4.1). Judged on the request as sent, whatever the server answered.
package struct VerifierCheck: NativeCheck {
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
            + "only-to-token-endpoint: no request of the case so far carries a verifier the app sent in a code exchange, but that "
            + "exchange's body: not a URL (the token request's own query included), not a followed redirect, a refresh, a "
            + "revocation or an API call (the authorization request is the audit's); put it on a case's last step to cover the case")

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

    package func evaluate(_ native: NativeObservation, in context: Template.Context) -> CheckOutcome {
        if expectation == .onlyToTokenEndpoint { return Self.onlyToTokenEndpoint(native) }
        guard let exchange = native.codeExchange else { return .notApplicable(reason: "the app made no code exchange") }
        let found = exchange.form.all(named: "code_verifier")
        guard found.count == 1, let bytes = found[0].value, let verifier = String(validating: bytes, as: UTF8.self) else {
            // A missing verifier is `present`'s finding (NAT-PKCE-006), not a malformed one.
            if expectation != .present, found.isEmpty { return .notApplicable(reason: "the code exchange had no code_verifier (NAT-PKCE-006)") }
            return .violated(observed: found.isEmpty ? "no code_verifier" : "code_verifier \(found.count) times, or not text")
        }
        guard expectation == .wellFormed else { return .held(observed: "code_verifier of \(verifier.utf8.count) characters") }
        return CheckOutcome(
            PKCE.isValidVerifier(verifier),
            "code_verifier of \(verifier.utf8.count) characters"
                + (PKCE.isValidVerifier(verifier) ? "" : ", not all unreserved or the wrong length"))
    }

    /// Every verifier the app sent in a code exchange of the case, looked for in every request of the case so far:
    /// only a code exchange's body may carry it. The authorization request is the audit's (a code_verifier
    /// parameter, NAT-PKCE-007; plain's challenge is the verifier itself, NAT-PKCE-004).
    private static func onlyToTokenEndpoint(_ native: NativeObservation) -> CheckOutcome {
        let requests = native.caseRequests ?? native.requests
        let exchanges = requests.filter { $0.isTokenRequest(grant: "authorization_code") }
        let verifiers = Set(exchanges.compactMap { $0.formValue("code_verifier") }.filter { !$0.isEmpty })
        guard !verifiers.isEmpty else {
            return .notApplicable(
                reason: exchanges.isEmpty ? "the app made no code exchange" : "the code exchange had no code_verifier (NAT-PKCE-006)")
        }
        let leaks = requests.filter { request in
            guard request.path != "/authorize" else { return false }
            let body = String(decoding: request.body, as: UTF8.self)
            let inBody =
                !request.isTokenRequest(grant: "authorization_code")
                && verifiers.contains { body.contains($0) || body.contains(FormEncoding.encode($0)) }
            let inURL = verifiers.contains { request.target.contains($0) || request.target.contains(FormEncoding.encode($0)) }
            return inBody || inURL
        }
        return CheckOutcome(
            leaks.isEmpty,
            leaks.isEmpty
                ? "only in the body of the code exchange (\(requests.count) requests of the case looked at)"
                : "also sent in " + leaks.map { "\($0.method) \(Redaction.redact(url: $0.target))" }.joined(separator: ", "))
    }
}
