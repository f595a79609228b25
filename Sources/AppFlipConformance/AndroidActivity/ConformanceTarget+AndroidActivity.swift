import AppFlipSetup

extension ConformanceTarget {
    /// The partner's Android App Flip activity behind the Android adapter contract (the `android-app-flip` profile):
    /// a program speaking it on stdin/stdout (`arguments[0]`, a path or a name on `PATH`, started without a shell),
    /// the client ID issued to Google, the console's intent action and the app's package.
    public static func android(
        _ arguments: [String], clientID: String, action: String, package: String,
        persistent: Bool = false
    ) -> ConformanceTarget {
        var request = TargetSpecification(mode: persistent ? .persistent : .oneShot)
        request.androidHandler = arguments.first.map { ($0, Array(arguments.dropFirst())) }
        request.clientID = clientID
        request.androidAction = action
        request.androidPackage = package
        return ConformanceTarget(.request(request))
    }

    /// The same, served over HTTP (`POST` of the Android contract's request; the Robolectric bridge in Documentation/AdapterContracts.md).
    public static func androidURL(_ url: String, clientID: String, action: String, package: String) -> ConformanceTarget {
        var request = TargetSpecification()
        request.androidHandlerURL = url
        request.clientID = clientID
        request.androidAction = action
        request.androidPackage = package
        return ConformanceTarget(.request(request))
    }

    /// This target with the callers its Android activity allows, each `PACKAGE=SHA256` (the certificate's SHA-256 as
    /// 32 colon-separated hex pairs), as `run --android-allowed-caller`: each must get a code; without them, the
    /// Google app alone. For a target without an Android handler it changes nothing.
    public func allowingAndroidCallers(_ callers: [String]) -> ConformanceTarget {
        editingRequest { $0.androidAllowedCallers = callers }
    }
}
