/// A family of cases that share a target contract.
public enum Profile: String, Sendable, Hashable, CaseIterable {
    /// The App Flip universal-link handler, driven through the JSON Lines adapter contract.
    case appLink = "app-link"
    /// The partner's OAuth authorization endpoint, as Google's browser linking calls it.
    case authorize
    /// The partner's token and revocation endpoints.
    case token
    /// The apple-app-site-association file on the App Flip link's domain.
    case siteAssociation = "site-association"
    /// The link handler's code redeemed at the token endpoint, end to end.
    case flip
    /// A native app as an OAuth client (Google's installed-app flow), driven against the suite's own test
    /// authorization server; `validate-url` judges its authorization requests statically too.
    case nativeClient = "native-client"
    /// The partner's Android App Flip activity, started for a result with Google's intent, driven through the
    /// Android adapter contract.
    case androidAppFlip = "android-app-flip"


    /// The endpoints a profile needs; a run skips the profile when one is not configured.
    package var endpoints: [Endpoint] {
        switch self {
        case .appLink: []
        case .authorize: [.authorize]
        case .token: [.authorize, .token, .revoke]
        case .siteAssociation: [.siteAssociation]
        case .flip: [.token]
        case .nativeClient: []
        case .androidAppFlip: []
        }
    }

    /// The profiles whose requirements a case of this profile may check (its steps may go through their endpoints).
    package var checkableProfiles: Set<Profile> {
        switch self {
        case .token: [.token, .authorize]
        case .flip: [.flip, .appLink, .token]
        case .androidAppFlip: [.androidAppFlip, .token]
        default: [self]
        }
    }

    /// Profiles a catalog requirement may name while it is `planned`: they have no cases and no target yet.
    package static let plannedNames: Set<String> = []

    /// Whether the profile drives the link handler.
    package var usesLinkHandler: Bool { self == .appLink || self == .flip }

    /// Whether the profile drives the Android App Flip activity.
    package var usesAndroidHandler: Bool { self == .androidAppFlip }
}
