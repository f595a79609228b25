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

    /// Whether the profile's cases send intents (a case of one step writes `intent`, not `link`).
    package var usesIntentSteps: Bool { usesAndroidHandler }

    /// Why a case of one step cannot send what it wrote: a link in a profile of intents, or an intent in another.
    package static func singleStepRefusal(sendsIntents: Bool) -> String {
        sendsIntents
            ? "an android-app-flip case starts the activity with 'intent' (or 'steps'), not a link"
            : "'intent' is for android-app-flip cases; this case sends a 'link'"
    }

    /// Why a step cannot be in a case of this profile (empty when it can): a profile that drives an app sends its
    /// contract's steps, and only its cases send them (the native client's cases nothing else, the activity's no links).
    package func refusals(of action: Step.Action) -> [String] {
        var refusals: [String] = []
        let native: NativeStep? = if case .native(let step) = action { step } else { nil }
        if (native != nil) != (self == .nativeClient) {
            refusals.append(
                native.map { "a native-client step ('\($0.command.rawValue)') belongs to a native-client case" }
                    ?? "a native-client case's steps drive the app: sign_in, replay_redirect, unsolicited_redirect, refresh, call_api, sign_out")
        }
        switch action {
        case .intent where !usesAndroidHandler:
            refusals.append("an 'intent' step belongs to an android-app-flip case")
        case .link where usesAndroidHandler:
            refusals.append("an android-app-flip case starts the activity with 'intent' steps, not links")
        default:
            break
        }
        return refusals
    }
}
