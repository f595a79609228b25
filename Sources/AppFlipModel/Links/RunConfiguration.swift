/// What a run knows about the partner's target: the values the valid base link is made of, and the seed.
package struct RunConfiguration: Sendable, Hashable {
    /// The partner's App Flip universal link, without a query, e.g. `https://app.example/flip`.
    package var link: String
    /// The client ID the partner registered for Google.
    package var clientID: String
    /// The scope the base link requests.
    package var scope: String
    /// The flip URI the base link carries (one of the twelve allowed).
    package var redirectURI: String
    /// Generated values (state, nonce) derive from this and the case ID.
    package var seed: UInt64
    /// The project ID in Google's browser-linking redirect URI.
    package var projectID: String
    /// The iOS app ID (`TEAMID.bundle`) for the site association.
    package var appID: String
    /// The partner's declared authorization-code lifetime in seconds, when the configuration gives one: cases
    /// that wait it out (`wait: code_lifetime`) need it.
    package var codeLifetime: Double?
    /// Seconds an access token stays valid at the API (`token_lifetime`), for the token-expiry case.
    package var tokenLifetime: Double?
    /// A public native client registered at the partner's server, when the configuration names one.
    package var nativeClient: NativeClient?
    /// A scope request the partner's server grants only in part (`narrowed_scope`), for TOK-RESP-005.
    package var narrowedScope: NarrowedScope?
    /// `narrowed_scope: none`: the partner declares that its server never grants part of a scope request (it grants
    /// all or refuses with invalid_scope, as RFC 6749 §3.3 allows), so what a narrowing must say does not apply.
    package var neverNarrows = false
    /// Whether the partner opted into the throttling probe (`throttling_probe: true`).
    package var throttlingProbe = false
    /// What the Android App Flip profile sends: the console's action, the partner's package, the caller.
    package var android = AndroidSettings()

    package init(
        link: String, clientID: String, scope: String = "devices",
        redirectURI: String = AllowedFlipURIs.default, seed: UInt64 = 1, projectID: String = "", appID: String = ""
    ) {
        self.link = link
        self.clientID = clientID
        self.scope = scope
        self.redirectURI = redirectURI
        self.seed = seed
        self.projectID = projectID
        self.appID = appID
    }

    /// Google's browser-linking redirect URI for the project: `https://oauth-redirect.googleusercontent.com/r/<PROJECT_ID>`.
    package var webRedirectURI: String { "https://oauth-redirect.googleusercontent.com/r/" + projectID }
}

extension RunConfiguration {
    /// The case files' variables of the adapter contracts' settings: the native client's, then the activity's.
    package static let adapterVariableNames = NativeClient.variableNames + AndroidSettings.variableNames

    /// The value of one of `adapterVariableNames`; empty where the configuration has none.
    func adapterVariable(_ name: String) -> String {
        if NativeClient.variableNames.contains(name) { return nativeClient?.variable(name) ?? "" }
        return android.variable(name)
    }
}
