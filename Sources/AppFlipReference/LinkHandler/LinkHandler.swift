/// The reference App Flip link handler: what a correct partner app does with an incoming universal link.
///
/// It is deliberately written apart from the suite's own checking code (it parses and encodes on its own), so a
/// mistake in one is not silently mirrored in the other. Each policy is a separate, replaceable stage; the
/// deliberately broken handlers under `Tests/` replace exactly one stage each.
package struct LinkHandler: Sendable {
    /// The flip URIs the handler may open: the twelve Google publishes, compared byte for byte.
    package static let allowedRedirectURIs: Set<String> = Set(
        ["oauth-redirect.googleusercontent.com", "oauth-redirect-sandbox.googleusercontent.com"].flatMap { host in
            [
                "com.google.Chromecast.dev", "com.google.Chromecast.enterprise", "com.google.Chromecast",
                "com.google.OPA.dev", "com.google.OPA.enterprise", "com.google.OPA",
            ].map { "https://\(host)/a/\($0)" }
        })

    /// The parameters App Flip defines for the incoming link.
    package static let definedParameters = ["client_id", "scope", "state", "redirect_uri"]

    /// The client ID the partner registered for Google.
    package var clientID: String
    /// Decides whether a decoded redirect_uri may be opened.
    package var acceptsRedirectURI: @Sendable (String) -> Bool
    /// Decides whether a decoded client_id is Google's.
    package var acceptsClientID: @Sendable (_ received: String, _ expected: String) -> Bool
    /// Decides what to do when a parameter is repeated: true rejects the request.
    package var rejectsRepeatedParameters: Bool
    /// Whether a raw '+' in the incoming link is a space (form encoding, the default) or a plus (how
    /// `URLComponents.queryItems` reads it); both readings are correct, the App Flip pages do not choose.
    package var readsPlusAsSpace = true
    /// Encodes one value for the result query.
    package var encodeValue: @Sendable ([UInt8]) -> String
    /// The error code for a scenario that does not end in consent.
    package var errorCode: @Sendable (Scenario) -> String
    /// Mints an authorization code for the flip URI and the requested scope (nil when none was sent).
    package var mintCode: @Sendable (_ redirectURI: String, _ scope: String?) -> String
    /// Whether results are opened universal-links-only.
    package var universalLinksOnly: Bool
    /// Whether state is written before code/error in the result (either order is correct).
    package var stateFirst: Bool
    /// Whether error results carry the optional error_description.
    package var includesErrorDescription: Bool
    /// Whether a missing or empty scope gets the default grant (true) or invalid_request (false); both are correct.
    package var grantsDefaultScope: Bool

    package enum Scenario: String, Sendable {
        case consent
        case deny
        case cancel
        case disabledAccount = "disabled-account"
    }

    package enum Outcome: Sendable, Equatable {
        case open(url: String, universalLinksOnly: Bool)
        case decline
    }

    package init(clientID: String) {
        self.clientID = clientID
        acceptsRedirectURI = { LinkHandler.allowedRedirectURIs.contains($0) }
        acceptsClientID = { $0 == $1 }
        rejectsRepeatedParameters = true
        encodeValue = QueryCodec.encode
        errorCode = { scenario in
            switch scenario {
            case .consent: "invalid_request"
            case .deny: "access_denied"
            case .cancel: "cancelled"
            case .disabledAccount: "unrecoverable"
            }
        }
        mintCode = { _, _ in CodeMinter.mint() }
        universalLinksOnly = true
        stateFirst = false
        includesErrorDescription = true
        grantsDefaultScope = true
    }

    /// Handles one incoming link for one scenario.
    package func handle(link: String, scenario: Scenario) -> Outcome {
        let query = QueryCodec.query(of: link)
        let pairs = QueryCodec.pairs(query, plusIsSpace: readsPlusAsSpace)
        func values(_ name: String) -> [[UInt8]?] { pairs.filter { $0.name == Array(name.utf8) }.map(\.value) }

        // 1. The redirect URI comes first: if it cannot be trusted, nothing is opened at all (RFC 6749 §4.1.2.1).
        let redirects = values("redirect_uri")
        guard let chosen = rejectsRepeatedParameters ? (redirects.count == 1 ? redirects[0] : nil) : redirects.first ?? nil,
            let redirectURI = String(validating: chosen, as: UTF8.self), acceptsRedirectURI(redirectURI)
        else {
            return .decline
        }

        // 2. From here every outcome goes back to that URI.
        let states = values("state")
        let state: [UInt8]?
        if rejectsRepeatedParameters {
            state = states.count == 1 ? states[0].flatMap { $0.isEmpty ? nil : $0 } : nil
        } else {
            state = states.first.flatMap { $0 }.flatMap { $0.isEmpty ? nil : $0 }
        }
        func result(_ parameters: [(String, [UInt8])]) -> Outcome {
            var all = parameters
            if let state {
                if stateFirst { all.insert(("state", state), at: 0) } else { all.append(("state", state)) }
            }
            let query = all.map { "\($0.0)=\(encodeValue($0.1))" }.joined(separator: "&")
            return .open(url: redirectURI + "?" + query, universalLinksOnly: universalLinksOnly)
        }
        func invalidRequest() -> Outcome {
            result(
                [("error", Array("invalid_request".utf8))]
                    + (includesErrorDescription ? [("error_description", Array("Invalid Request".utf8))] : []))
        }

        // RFC 6749 §3.1 (Errata 5708): the parameters the protocol defines must not repeat or be malformed;
        // parameters the app does not know are ignored, however they are written.
        for name in LinkHandler.definedParameters {
            let copies = values(name)
            if rejectsRepeatedParameters, copies.count > 1 { return invalidRequest() }
            if copies.contains(where: { $0 == nil }) { return invalidRequest() }
        }
        let clientIDs = values("client_id")
        guard let received = clientIDs.first ?? nil, !received.isEmpty,
            let receivedText = String(validating: received, as: UTF8.self), acceptsClientID(receivedText, clientID)
        else {
            return invalidRequest()
        }
        guard state != nil else { return invalidRequest() }
        let scope = values("scope").first ?? nil
        if let scope, !scope.isEmpty, !QueryCodec.isValidScope(scope) { return invalidRequest() }
        if !grantsDefaultScope, scope?.isEmpty ?? true { return invalidRequest() }

        // 3. The simulated user decides.
        switch scenario {
        case .consent:
            let scopeText = scope.flatMap { $0.isEmpty ? nil : String(validating: $0, as: UTF8.self) }
            return result([("code", Array(mintCode(redirectURI, scopeText).utf8))])
        case .deny, .cancel, .disabledAccount:
            return result([("error", Array(errorCode(scenario).utf8))])
        }
    }
}
