/// What the Android App Flip profile needs to know of the partner's app, and who calls it.
package struct AndroidSettings: Sendable, Hashable {
    /// The App Flip intent action entered in the console (`android_action`), which the activity's filter names.
    package var action: String
    /// The partner app's package (`android_package`).
    package var package: String
    /// The caller of every valid request (`android_caller`): Google's app unless the configuration names a test-only
    /// caller its adapter accepts, as Google's sample accepts its test tool.
    package var caller: AndroidCaller
    /// The callers the activity allows (`android_allowed_callers`), each of which must get a code; `caller` always
    /// among them. By default the Google app alone, the one identity Google's pages speak of: another Google app
    /// (Google Home) the activity may allow or refuse unless it is listed here.
    package var allowedCallers: [AndroidCaller] {
        get { listedCallers.contains { $0.sameIdentity(as: caller) } ? listedCallers : [caller] + listedCallers }
        set { listedCallers = newValue }
    }
    private var listedCallers: [AndroidCaller] = []
    /// The `REDIRECT_URI` extra (`android_redirect_uri`). No source gives Google's real value on Android; by analogy
    /// with iOS we send the Google app's flip URI, and the activity must treat it as opaque (reference file §2.3).
    package var redirectURI: String

    package init(
        action: String = AndroidSettings.referenceAction, package: String = AndroidSettings.referencePackage,
        caller: AndroidCaller = .googleApp, redirectURI: String = AndroidSettings.defaultRedirectURI
    ) {
        self.action = action
        self.package = package
        self.caller = caller
        self.redirectURI = redirectURI
    }

    /// The reference handler's action and package, the defaults of a run against it.
    package static let referenceAction = "com.example.reference.APP_FLIP"
    package static let referencePackage = "com.example.reference"
    package static let defaultRedirectURI = "https://oauth-redirect.googleusercontent.com/a/com.google.android.googlequicksearchbox"
}
