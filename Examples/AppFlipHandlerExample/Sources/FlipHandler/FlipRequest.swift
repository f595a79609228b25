import Foundation

/// The App Flip request in an incoming universal link (`client_id`, `scope`, `state`, `redirect_uri`), checked the
/// way Google's App Flip page asks, with Foundation's `URLComponents`.
///
/// The page's sample reads `queryItems` and builds the answer with `URLComponents.queryItems`, which leaves `+`
/// and other characters unencoded, so a `state` containing them comes back changed. This version keeps every value
/// exactly: it reads the percent-encoded items, and encodes what it returns itself.
public struct FlipRequest: Sendable, Equatable {
    /// The flip URLs Google publishes; `redirect_uri` must be one of them, byte for byte.
    public static let flipURLs: Set<String> = Set(
        ["oauth-redirect.googleusercontent.com", "oauth-redirect-sandbox.googleusercontent.com"].flatMap { host in
            [
                "com.google.Chromecast.dev", "com.google.Chromecast.enterprise", "com.google.Chromecast",
                "com.google.OPA.dev", "com.google.OPA.enterprise", "com.google.OPA",
            ].map { "https://\(host)/a/\($0)" }
        })

    /// What the app does with a link.
    public enum Outcome: Sendable, Equatable {
        /// The request is valid: ask the user, then answer with `approved(code:)` or `failed(_:)`.
        case valid(FlipRequest)
        /// The request is invalid but names a trusted flip URL: open this URL (it carries `error=invalid_request`).
        case invalid(URL)
        /// The link cannot be trusted to answer anywhere (no, a repeated or an unknown `redirect_uri`): open nothing.
        case ignore
    }

    /// The errors App Flip defines for the answer.
    public enum Failure: String, Sendable {
        /// The user backed out or could not sign in (recoverable).
        case cancelled
        /// The account cannot be linked (disabled, suspended).
        case unrecoverable
        /// The user refused consent.
        case accessDenied = "access_denied"
        case invalidRequest = "invalid_request"
    }

    public let redirectURI: String
    /// `state` as received, percent-encoded the way the link carried it, so it goes back byte for byte.
    let encodedState: String
    /// The requested scopes (empty: the default grant).
    public let scopes: [String]

    /// Checks `link` for the client ID the partner registered for Google.
    public static func check(_ link: URL, clientID: String) -> Outcome {
        guard let components = URLComponents(url: link, resolvingAgainstBaseURL: false) else { return .ignore }
        let items = components.percentEncodedQueryItems ?? []
        func values(_ name: String) -> [String?] { items.filter { $0.name == name }.map(\.value) }

        // The redirect URI first: unless it is exactly one of Google's, nothing is opened at all.
        let redirects = values("redirect_uri")
        guard redirects.count == 1, let encodedRedirect = redirects[0], let redirectURI = encodedRedirect.removingPercentEncoding,
            flipURLs.contains(redirectURI)
        else {
            return .ignore
        }
        // From here every answer goes to that URL. A value that is missing, empty, repeated or malformed is invalid.
        let states = values("state")
        let encodedState = states.count == 1 ? states[0].flatMap { $0.isEmpty ? nil : $0 } : nil
        func invalid() -> Outcome {
            .invalid(answer(redirectURI, [("error", encode(Failure.invalidRequest.rawValue))], state: encodedState))
        }
        for name in ["client_id", "scope", "state", "redirect_uri"] where values(name).count > 1 {
            return invalid()
        }
        guard let received = values("client_id").first ?? nil, received.removingPercentEncoding == clientID,
            let encodedState, encodedState.removingPercentEncoding != nil || isPercentEncoded(encodedState)
        else {
            return invalid()
        }
        var scopes: [String] = []
        if let encodedScope = values("scope").first ?? nil, !encodedScope.isEmpty {
            // Scope tokens are separated by single spaces, each of the OAuth scope characters (RFC 6749 §3.3).
            guard let scope = encodedScope.replacingOccurrences(of: "+", with: " ").removingPercentEncoding else { return invalid() }
            scopes = scope.components(separatedBy: " ")
            let allowed = CharacterSet(charactersIn: "!").union(CharacterSet(charactersIn: Unicode.Scalar(0x23)...Unicode.Scalar(0x5B)))
                .union(CharacterSet(charactersIn: Unicode.Scalar(0x5D)...Unicode.Scalar(0x7E)))
            guard scopes.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy(allowed.contains) }) else { return invalid() }
        }
        return .valid(FlipRequest(redirectURI: redirectURI, encodedState: encodedState, scopes: scopes))
    }

    /// The URL to open once the user approved and the app's server issued `code`.
    public func approved(code: String) -> URL {
        Self.answer(redirectURI, [("code", Self.encode(code))], state: encodedState)
    }

    /// The URL to open when the link does not end in consent.
    public func failed(_ failure: Failure) -> URL {
        Self.answer(redirectURI, [("error", Self.encode(failure.rawValue))], state: encodedState)
    }

    // MARK: - Encoding

    /// Characters a query value keeps as they are (RFC 3986 unreserved); everything else is percent-encoded.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// Whether `text` is only unreserved characters and well-formed `%HH` escapes (bytes that are not UTF-8 are
    /// passed back exactly as they came).
    private static func isPercentEncoded(_ text: String) -> Bool {
        var rest = Substring(text)
        while let first = rest.first {
            if first == "%" {
                guard rest.count >= 3, rest.dropFirst().prefix(2).allSatisfy(\.isHexDigit) else { return false }
                rest = rest.dropFirst(3)
            } else {
                guard first.unicodeScalars.allSatisfy(unreserved.contains) else { return false }
                rest = rest.dropFirst()
            }
        }
        return true
    }

    /// The state in the form it goes back: re-encoded when it decodes as UTF-8 (a raw `+` stays a `+`, read as
    /// `URLComponents` reads it), the received escapes otherwise.
    private static func returnedState(_ encodedState: String) -> String {
        encodedState.removingPercentEncoding.map(encode) ?? encodedState
    }

    private static func answer(_ redirectURI: String, _ parameters: [(String, String)], state: String?) -> URL {
        let query = (parameters + (state.map { [("state", returnedState($0))] } ?? [])).map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        // The flip URLs are fixed https URLs and the query is encoded above, so this always parses.
        return URL(string: redirectURI + "?" + query) ?? URL(fileURLWithPath: "/")
    }
}
