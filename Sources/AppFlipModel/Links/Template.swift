import AppFlipBase

/// A value from a case file that may refer to the run's configuration and generated values: `${client_id}`.
///
/// Templates only substitute text; nothing in them is ever executed. `$$` writes a literal `$`.
package struct Template: Sendable, Hashable, CustomStringConvertible {
    package enum Variable: Sendable, Hashable {
        /// The client ID the partner registered for Google (`--client-id`).
        case clientID
        /// `${client_id_case_changed}`: the client ID with the case of each ASCII letter swapped, which an exact
        /// comparison refuses (a case needs `client_id_letters`, so it differs).
        case clientIDCaseChanged
        /// The partner's App Flip universal link, without a query (`--link`).
        case link
        /// The flip URI the valid base link carries.
        case redirectURI
        /// The scope the valid base link carries.
        case scope
        /// The state generated for this case from the seed and the case ID.
        case state
        /// A second generated value for this case, for probes that need another opaque value.
        case nonce
        /// The project ID in Google's browser-linking redirect URI.
        case projectID
        /// `https://oauth-redirect.googleusercontent.com/r/${project_id}`.
        case webRedirectURI
        /// The iOS app ID (`TEAMID.bundle`).
        case appID
        /// A PKCE verifier generated for this case, and its S256 challenge.
        case codeVerifier
        case codeChallenge
        /// A value an earlier step captured: `${captured.code}`.
        case captured(String)
        /// The value of a parameter in the link that was sent, after one decoding: `${sent.state}`.
        case sent(String)
        /// `${repeat:2048:A}`: the text repeated.
        case `repeat`(count: Int, text: String)
        /// A value of an adapter contract's settings (`RunConfiguration.adapterVariableNames`): the configured native
        /// client's, the activity's.
        case adapter(String)
        /// `${code_verifier_percent_encoded}`: the verifier with every character written as `%XX`.
        case codeVerifierPercentEncoded
        /// `${s256:TEXT}`: BASE64URL(SHA256(TEXT)), an S256 challenge for a verifier a case writes itself.
        case s256(String)
        /// The configured narrowing: `${narrowed_scope_request}` (true: the request) or `${narrowed_scope_granted}`.
        case narrowedScope(request: Bool)
    }

    package enum Part: Sendable, Hashable {
        case literal(String)
        case variable(Variable)
    }

    package var parts: [Part]

    package init(parts: [Part]) {
        self.parts = parts
    }

    package init(literal: String) {
        self.parts = [.literal(literal)]
    }

    /// The names a case file may use, for error messages and suggestions.
    package static let variableNames =
        [
            "client_id", "client_id_case_changed", "link", "redirect_uri", "scope", "state", "nonce", "project_id",
            "web_redirect_uri", "app_id", "code_verifier", "code_challenge", "captured.<name>",
            "sent.<parameter>", "repeat:<count>:<text>", "code_verifier_percent_encoded", "s256:<text>", "narrowed_scope_request",
            "narrowed_scope_granted",
        ] + RunConfiguration.adapterVariableNames

    /// Upper bound on the length of one `${repeat:...}` expansion.
    package static let maximumRepeatLength = 1 << 20

    /// A parse error at a character offset within the text.
    package struct ParseError: Error, Sendable {
        package var offset: Int
        package var message: String
    }

    /// Parses `text`; `${row.NAME}` must already have been substituted.
    package static func parse(_ text: String) throws(ParseError) -> Template {
        var parts: [Part] = []
        var literal = ""
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            guard character == "$", index + 1 < characters.count else {
                literal.append(character)
                index += 1
                continue
            }
            if characters[index + 1] == "$" {
                literal.append("$")
                index += 2
                continue
            }
            guard characters[index + 1] == "{" else {
                literal.append(character)
                index += 1
                continue
            }
            guard let close = characters[(index + 2)...].firstIndex(of: "}") else {
                throw ParseError(offset: index, message: "'${' without a closing '}'")
            }
            let name = String(characters[(index + 2)..<close])
            if name.hasPrefix("repeat:"), variable(named: name) == nil {
                throw ParseError(
                    offset: index,
                    message: "'${repeat:COUNT:TEXT}' takes a count (0 or more) and non-empty text, and expands "
                        + "to at most \(maximumRepeatLength) bytes (COUNT × the length of TEXT)")
            }
            guard let variable = variable(named: name) else {
                let suggestion =
                    Suggestion.closest(
                        to: name,
                        among: [
                            "client_id", "link", "redirect_uri", "scope", "state", "nonce",
                            "project_id", "web_redirect_uri", "app_id", "code_verifier",
                            "code_challenge",
                        ]
                    )
                    .map { " (did you mean '${\($0)}'?)" } ?? ""
                throw ParseError(
                    offset: index, message: "unknown variable '${\(name)}'\(suggestion); known: \(variableNames.joined(separator: ", "))")
            }
            if !literal.isEmpty {
                parts.append(.literal(literal))
                literal = ""
            }
            parts.append(.variable(variable))
            index = close + 1
        }
        if !literal.isEmpty || parts.isEmpty { parts.append(.literal(literal)) }
        return Template(parts: parts)
    }

    private static func variable(named name: String) -> Variable? {
        switch name {
        case "client_id": return .clientID
        case "client_id_case_changed": return .clientIDCaseChanged
        case "link": return .link
        case "redirect_uri": return .redirectURI
        case "narrowed_scope_request": return .narrowedScope(request: true)
        case "narrowed_scope_granted": return .narrowedScope(request: false)
        case "scope": return .scope
        case "state": return .state
        case "nonce": return .nonce
        case "project_id": return .projectID
        case "web_redirect_uri": return .webRedirectURI
        case "app_id": return .appID
        case "code_verifier": return .codeVerifier
        case "code_challenge": return .codeChallenge
        case "code_verifier_percent_encoded": return .codeVerifierPercentEncoded
        default: break
        }
        if RunConfiguration.adapterVariableNames.contains(name) { return .adapter(name) }
        if name.hasPrefix("s256:"), name.count > 5 { return .s256(String(name.dropFirst(5))) }
        if name.hasPrefix("captured."), name.count > 9 { return .captured(String(name.dropFirst(9))) }
        if name.hasPrefix("sent."), name.count > 5 { return .sent(String(name.dropFirst(5))) }
        if name.hasPrefix("repeat:") {
            let pieces = name.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard pieces.count == 3, let count = Int(pieces[1]), count >= 0, !pieces[2].isEmpty else { return nil }
            let (bytes, overflow) = count.multipliedReportingOverflow(by: pieces[2].utf8.count)
            guard !overflow, bytes <= maximumRepeatLength else { return nil }
            return .repeat(count: count, text: String(pieces[2]))
        }
        return nil
    }

    /// True when the template needs the link that was sent (so it can only be resolved when judging).
    package var refersToSentLink: Bool {
        parts.contains { if case .variable(.sent) = $0 { true } else { false } }
    }

    package var description: String {
        parts.map { part in
            switch part {
            case .literal(let text): text.replacingOccurrences(of: "$", with: "$$")
            case .variable(let variable): "${\(variable.name)}"
            }
        }.joined()
    }
}

extension Template.Variable {
    var name: String {
        switch self {
        case .clientID: "client_id"
        case .clientIDCaseChanged: "client_id_case_changed"
        case .link: "link"
        case .redirectURI: "redirect_uri"
        case .scope: "scope"
        case .state: "state"
        case .nonce: "nonce"
        case .projectID: "project_id"
        case .webRedirectURI: "web_redirect_uri"
        case .appID: "app_id"
        case .codeVerifier: "code_verifier"
        case .codeChallenge: "code_challenge"
        case .captured(let name): "captured.\(name)"
        case .sent(let parameter): "sent.\(parameter)"
        case .repeat(let count, let text): "repeat:\(count):\(text)"
        case .adapter(let name): name
        case .codeVerifierPercentEncoded: "code_verifier_percent_encoded"
        case .s256(let text): "s256:\(text)"
        case .narrowedScope(let request): request ? "narrowed_scope_request" : "narrowed_scope_granted"
        }
    }
}
