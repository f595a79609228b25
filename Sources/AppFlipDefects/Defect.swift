/// One target the package ships with a single deliberate defect, or with a correct design that differs from the
/// reference's, and what a run of the suite against it must find: the proof, requirement by requirement, that the
/// suite would fail a partner who broke it (`appflip-conformance detection` runs them all).
package struct Defect: Sendable, Hashable {
    /// Which shipped program carries the defect.
    package enum Family: String, Sendable, CaseIterable {
        /// `appflip-reference serve --defect NAME`: authorize, token, revoke, the API, metadata, the site association.
        case server
        /// `broken-handler --defect NAME`: the App Flip link handler (app-link and flip profiles).
        case linkHandler = "link-handler"
        /// `broken-android-handler --defect NAME`: the Android App Flip activity.
        case androidHandler = "android-handler"
        /// `broken-native-client --defect NAME`: a native app signing in with OAuth (RFC 8252).
        case nativeClient = "native-client"

        /// The program built beside the suite that carries the family's defects.
        package var program: String {
            switch self {
            case .server: return "appflip-reference"
            case .linkHandler: return "broken-handler"
            case .androidHandler: return "broken-android-handler"
            case .nativeClient: return "broken-native-client"
            }
        }

        /// How long a run of one of its defects takes, relatively: the longest start first.
        package var weight: Int {
            switch self {
            case .nativeClient: return 3
            case .server: return 2
            case .androidHandler: return 1
            case .linkHandler: return 0
            }
        }
    }

    /// What a run against it must show.
    package enum Role: String, Sendable {
        /// Breaks requirements: the run fails exactly `fails` and warns exactly `warns`, and no case ends in error.
        case defect
        /// Correct, but not as the reference does it: the run fails nothing, warns nothing, and no case ends in error.
        case variant
        /// Hostile to the harness (hangs, floods, breaks the adapter contract): the tests prove the run survives it;
        /// it names no requirement, so detection does not run it.
        case fixture
    }

    /// What must hold on this machine for the expected findings to be observable at all.
    package enum Condition: String, Sendable {
        /// The suite serves TLS itself (Linux, with OpenSSL): the certificate cases run.
        case ownTLS = "own TLS"
        /// The machine's socket table can be read (Linux's /proc): where a listener is bound is observable.
        case socketTable = "socket table"
    }

    package var family: Family
    package var name: String
    /// What the target does wrong (or differently), in one sentence, as `--help` lists it.
    package var summary: String
    package var role: Role
    /// The MUST / MUST NOT requirements a run against it fails: exactly these.
    package var fails: Set<String>
    /// The SHOULD / SHOULD NOT requirements a run against it warns under: exactly these.
    package var warns: Set<String>
    /// For a native client: its redirect, `scheme` (the default) or `loopback`.
    package var redirect: String?
    /// When set and not met here, nothing is expected (the run must then fail and warn nothing).
    package var condition: Condition?
    /// For a server: its test users sign in through its pages (form, session, consent form), so the sign-in probes
    /// run; otherwise through the cookie test hook, which lets a wrapper see every code at the authorization endpoint.
    package var signsInThroughPages = false

    package init(
        _ family: Family, _ name: String, _ summary: String, role: Role = .defect, fails: Set<String> = [], warns: Set<String> = [],
        redirect: String? = nil, condition: Condition? = nil, signsInThroughPages: Bool = false
    ) {
        self.signsInThroughPages = signsInThroughPages
        self.family = family
        self.name = name
        self.summary = summary
        self.role = role
        self.fails = fails
        self.warns = warns
        self.redirect = redirect
        self.condition = condition
    }

    /// `family/name`, with the redirect mode when it has one: unique in the catalog.
    package var id: String { family.rawValue + "/" + name + (redirect.map { " (\($0))" } ?? "") }
}
