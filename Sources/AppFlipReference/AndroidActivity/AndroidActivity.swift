/// The reference Android App Flip activity: what a correct partner activity does when Google starts it for a result.
///
/// Written apart from the suite's checking code (its own types, its own reading), as `LinkHandler` is, so a mistake
/// in one is not mirrored in the other. Each policy is a replaceable stage; the broken handlers under `Tests/` replace
/// exactly one stage each.
package struct AndroidActivity: Sendable {
    /// A typed extra as the activity reads or puts it.
    package enum Extra: Sendable, Equatable {
        case string(String)
        case strings([String])
        case int(Int)
        /// A type the activity does not read (what `getStringExtra` and friends would not return).
        case unread(type: String)
    }

    /// The result the activity sets before it finishes.
    package struct Result: Sendable {
        package var code: Int
        /// Name and value in the order put; nil for no data intent.
        package var extras: [(String, Extra)]?
        package var finished: Bool

        package init(code: Int, extras: [(String, Extra)]?, finished: Bool = true) {
            self.code = code
            self.extras = extras
            self.finished = finished
        }

    }

    /// Who started the activity, as `getCallingActivity()` and the package manager tell it.
    package struct Caller: Sendable, Equatable {
        package var package: String
        package var signature: String

        package init(package: String, signature: String) {
            self.package = package
            self.signature = signature
        }
    }

    package static let resultOK = -1
    package static let resultCanceled = 0
    package static let resultError = -2
    package static let recoverable = 1
    package static let unrecoverable = 2
    package static let invalidRequest = 3
    package static let userDeniedConsent = 13

    /// Google's apps, with their release-key digests: the callers a partner allows.
    package static let googleCallers = [
        Caller(
            package: "com.google.android.googlequicksearchbox",
            signature: "F0:FD:6C:5B:41:0F:25:CB:25:C3:B5:33:46:C8:97:2F:AE:30:F8:EE:74:11:DF:91:04:80:AD:6B:2D:60:DB:83"),
        Caller(
            package: "com.google.android.apps.chromecast.app",
            signature: "3D:7A:12:23:01:9A:A3:9D:9E:A0:E3:43:6A:B7:C0:89:6B:FB:4F:B6:79:F4:DE:5F:E7:C2:3F:32:6C:8F:99:4A"),
    ]

    /// The client ID the partner issued to Google.
    package var clientID: String
    /// Whether CLIENT_ID's value is compared (false: only its presence, as Google's sample does).
    package var checksClientValue = true
    /// Compares the received CLIENT_ID with the one issued to Google: exactly, byte for byte.
    package var acceptsClientID: @Sendable (_ received: String, _ expected: String) -> Bool = { $0 == $1 }
    /// The callers allowed to start the activity.
    package var allowedCallers = AndroidActivity.googleCallers
    /// Decides whether a caller is allowed: its package equal, its certificate digest equal ignoring case (tools
    /// write it upper- or lower-case).
    package var acceptsCaller: @Sendable (Caller?, [Caller]) -> Bool = { caller, allowed in
        guard let caller else { return false }
        return allowed.contains { $0.package == caller.package && $0.signature.uppercased() == caller.signature.uppercased() }
    }
    /// Reads the requested scope: `SCOPE` as Google sends it (String[]), tolerating the String the old test tool sent;
    /// nil when absent or empty (the default grant).
    package var readScope: @Sendable (Extra?) -> String? = { extra in
        switch extra {
        case .strings(let scopes): scopes.isEmpty ? nil : scopes.joined(separator: " ")
        case .string(let scope): scope.isEmpty ? nil : scope
        default: nil
        }
    }
    /// Mints a code for the `REDIRECT_URI` extra and the scope.
    package var mintCode: @Sendable (_ redirectURI: String, _ scope: String?) -> String
    /// What a scenario that does not end in consent gives back.
    package var refusal: @Sendable (Scenario) -> Result = { scenario in
        switch scenario {
        case .consent: AndroidActivity.error(type: AndroidActivity.recoverable, code: 5, description: "internal error")
        case .deny:
            AndroidActivity.error(type: AndroidActivity.unrecoverable, code: AndroidActivity.userDeniedConsent, description: "consent declined")
        case .cancel: Result(code: AndroidActivity.resultCanceled, extras: nil)
        case .disabledAccount: AndroidActivity.error(type: AndroidActivity.unrecoverable, code: 5, description: "account disabled")
        }
    }
    /// What a request that fails verification gives back: an invalid request, at once, and no code.
    package var verificationFailure: @Sendable (_ what: String) -> Result = { what in
        AndroidActivity.error(type: AndroidActivity.invalidRequest, code: 8, description: what)
    }

    package enum Scenario: String, Sendable {
        case consent
        case deny
        case cancel
        case disabledAccount = "disabled-account"
    }

    package init(clientID: String, mintCode: @escaping @Sendable (String, String?) -> String) {
        self.clientID = clientID
        self.mintCode = mintCode
    }

    package static func error(type: Int, code: Int, description: String) -> Result {
        Result(code: resultError, extras: [("ERROR_TYPE", .int(type)), ("ERROR_CODE", .int(code)), ("ERROR_DESCRIPTION", .string(description))])
    }

    /// Handles one start: the caller first, then the client ID, then the user.
    package func handle(extras: [String: Extra], caller: Caller?, scenario: Scenario) -> Result {
        guard acceptsCaller(caller, allowedCallers) else { return verificationFailure("calling app not allowed") }
        guard case .string(let received)? = extras["CLIENT_ID"], !checksClientValue || acceptsClientID(received, clientID) else {
            return verificationFailure("client verification failed")
        }
        guard scenario == .consent else { return refusal(scenario) }
        let redirectURI: String
        if case .string(let uri)? = extras["REDIRECT_URI"] { redirectURI = uri } else { redirectURI = "" }
        let code = mintCode(redirectURI, readScope(extras["SCOPE"]))
        return Result(code: AndroidActivity.resultOK, extras: [("AUTHORIZATION_CODE", .string(code))])
    }
}
