import AppFlipBase

extension Template {
    /// What templates resolve against.
    package struct Context: Sendable {
        package var configuration: RunConfiguration
        package var generated: GeneratedValues
        /// The parameters of the link or request that was sent; available only when judging.
        package var sent: [QueryParameter]
        /// Values earlier steps captured (the last one, for a repeated step).
        package var captured: [String: String]
        /// Every value captured under each name, in order (a repeated step captures many).
        package var samples: [String: [String]]
        /// The opened URL a judge read once for all of a step's checks, with its query's parameters
        /// (`openedParameters(of:)`): every check of an answer reads them, and parsing them again for each was a
        /// fifth of a consenting case's judging (issue 52).
        package var opened: (url: String, parameters: [QueryParameter])?

        package init(
            configuration: RunConfiguration, generated: GeneratedValues, sent: [QueryParameter] = [],
            captured: [String: String] = [:], samples: [String: [String]] = [:]
        ) {
            self.configuration = configuration
            self.generated = generated
            self.sent = sent
            self.captured = captured
            self.samples = samples
        }
    }

    /// The text with every variable replaced. `${sent.NAME}` resolves to the single decoded value sent under
    /// that name, or to nothing when it was not sent exactly once.
    ///
    /// - Parameter encodingValues: when true (raw query text), every variable but `${link}` is inserted
    ///   form-encoded, so `client_id=${client_id}` stays one well-formed parameter; literal text is untouched.
    package func resolve(in context: Context, encodingValues: Bool = false) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .literal(let literal):
                text += literal
            case .variable(.link):
                text += context.configuration.link
            case .variable(let variable):
                var value = ""
                switch variable {
                case .clientID: value = context.configuration.clientID
                case .clientIDCaseChanged: value = Template.swappingCase(context.configuration.clientID)
                case .link: value = context.configuration.link
                case .redirectURI: value = context.configuration.redirectURI
                case .scope: value = context.configuration.scope
                case .state: value = context.generated.state
                case .nonce: value = context.generated.nonce
                case .projectID: value = context.configuration.projectID
                case .webRedirectURI: value = context.configuration.webRedirectURI
                case .appID: value = context.configuration.appID
                case .codeVerifier: value = context.generated.codeVerifier
                case .codeChallenge: value = PKCE.s256Challenge(for: context.generated.codeVerifier)
                case .captured(let name): value = context.captured[name] ?? ""
                case .sent(let name):
                    let matches = context.sent.all(named: name)
                    if matches.count == 1, let bytes = matches[0].value { value = String(decoding: bytes, as: UTF8.self) }
                case .repeat(let count, let unit):
                    value = String(repeating: unit, count: count)
                case .codeVerifierPercentEncoded:
                    // Inserted as it is, even in raw text: the point is that the server decodes it once.
                    text += context.generated.codeVerifier.utf8.map { "%" + String($0, radix: 16, uppercase: true) }.joined()
                    continue
                case .s256(let verifier):
                    value = PKCE.s256Challenge(for: verifier)
                case .narrowedScope(let request):
                    let narrowed = context.configuration.narrowedScope
                    value = (request ? narrowed?.request : narrowed?.granted) ?? ""
                case .adapter(let name):
                    value = context.configuration.adapterVariable(name)
                }
                text += encodingValues ? FormEncoding.encode(value) : value
            }
        }
        return text
    }
}

extension Template {
    /// `text` with the case of each ASCII letter swapped (`Google-Client` → `gOOGLE-cLIENT`); other characters kept.
    package static func swappingCase(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    switch scalar.value {
                    case 0x41...0x5A: Unicode.Scalar(scalar.value + 0x20) ?? scalar
                    case 0x61...0x7A: Unicode.Scalar(scalar.value - 0x20) ?? scalar
                    default: scalar
                    }
                }))
    }
}

extension Template.Context {
    /// The parameters of the URL `observation` opened: the ones read once for the step when they are that URL's.
    package func openedParameters(of observation: Observation) -> [QueryParameter] {
        if let opened, opened.url == observation.openedURL { return opened.parameters }
        return observation.openedParameters
    }
}
