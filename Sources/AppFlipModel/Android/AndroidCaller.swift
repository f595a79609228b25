/// The app that starts the partner's activity, as the partner's activity sees it: `getCallingActivity()`'s package
/// and the SHA-256 of that package's signing certificate, in colon hex (`F0:FD:…`).
package struct AndroidCaller: Sendable, Hashable {
    package var package: String
    package var signatureSHA256: String

    package init(package: String, signatureSHA256: String) {
        self.package = package
        self.signatureSHA256 = signatureSHA256
    }

    /// The Google app (`com.google.android.googlequicksearchbox`) with its widely published release-key digest. No
    /// Google page lists it (the console is thought to hold it); partners' allowlists do (reference file §1.7).
    package static let googleApp = AndroidCaller(
        package: "com.google.android.googlequicksearchbox",
        signatureSHA256: "F0:FD:6C:5B:41:0F:25:CB:25:C3:B5:33:46:C8:97:2F:AE:30:F8:EE:74:11:DF:91:04:80:AD:6B:2D:60:DB:83")

    /// Google Home (`com.google.android.apps.chromecast.app`), the other Google app partners allow.
    package static let googleHome = AndroidCaller(
        package: "com.google.android.apps.chromecast.app",
        signatureSHA256: "3D:7A:12:23:01:9A:A3:9D:9E:A0:E3:43:6A:B7:C0:89:6B:FB:4F:B6:79:F4:DE:5F:E7:C2:3F:32:6C:8F:99:4A")

    /// The callers a partner's activity must accept by default: Google's two apps.
    package static let google = [googleApp, googleHome]

    /// Google's App Flip test tool, as Google's own sample app allows it (`com.google.appfliptesttool`): a test-only
    /// caller a partner may add in its configuration (`android_test_caller`); its digest depends on who built it.
    package static let testToolPackage = "com.google.appfliptesttool"
}
