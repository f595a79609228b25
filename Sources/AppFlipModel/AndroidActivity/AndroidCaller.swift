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

    /// Google Home (`com.google.android.apps.chromecast.app`), which partners' allowlists often hold beside the Google
    /// app; no Google page says it starts App Flip (reference file §1.7 marks its identity uncertain), so it is
    /// required only of an activity configured to allow it (`android_allowed_callers`).
    package static let googleHome = AndroidCaller(
        package: "com.google.android.apps.chromecast.app",
        signatureSHA256: "3D:7A:12:23:01:9A:A3:9D:9E:A0:E3:43:6A:B7:C0:89:6B:FB:4F:B6:79:F4:DE:5F:E7:C2:3F:32:6C:8F:99:4A")

    /// Google's apps a partner's activity may allow: the Google app and Google Home.
    package static let google = [googleApp, googleHome]

    /// Whether `other` is this identity: the same package, and the same digest whatever the case of its hex and
    /// whether it is written with colons (an activity may compare either way; the suite's configuration too).
    package func sameIdentity(as other: AndroidCaller) -> Bool {
        package == other.package && Self.normalised(signatureSHA256) == Self.normalised(other.signatureSHA256)
    }

    /// A caller written `PACKAGE=SHA256` (a flag's or a variable's form); nil when it is not one.
    package init?(entry: String) {
        let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[0].contains(" "), Self.isDigest(parts[1]) else { return nil }
        self.init(package: parts[0], signatureSHA256: parts[1])
    }

    /// Whether `text` is a certificate digest as the configuration writes one: 32 colon-separated hex pairs.
    package static func isDigest(_ text: String) -> Bool {
        let pairs = text.split(separator: ":", omittingEmptySubsequences: false)
        return pairs.count == 32 && pairs.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
    }

    /// A digest's hex digits alone, upper case.
    package static func normalised(_ digest: String) -> String { digest.filter { $0 != ":" }.uppercased() }

    /// Google's App Flip test tool, as Google's own sample app allows it (`com.google.appfliptesttool`): a test-only
    /// caller a partner may add in its configuration (`android_test_caller`); its digest depends on who built it.
    package static let testToolPackage = "com.google.appfliptesttool"
}
