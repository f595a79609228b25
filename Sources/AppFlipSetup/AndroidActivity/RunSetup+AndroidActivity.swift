import AppFlipHTTP
import AppFlipModel
import AppFlipReference
import AppFlipReferenceServer
import AppFlipRunner

/// Setting up the Android activity's adapter from a request: a program or a URL, and the settings it is sent with.
extension RunSetup {
    /// How a request names the Android activity's adapter: `--android-handler` or `--android-handler-url`.
    private static func androidChoice(program: (name: String, arguments: [String])?, url: String?) -> AdapterChoice {
        AdapterChoice(
            program: program, url: url,
            bothGiven: "--android-handler-url cannot be combined with --android-handler", role: "Android handler",
            exampleURL: "http://127.0.0.1:8089/", preflightRequest: .androidPreflight)
    }

    /// The Android activity's adapter the request names: a program, or a URL (not both).
    static func androidTarget(
        _ request: TargetSpecification, passedEnvironment: [String], network: Network
    ) throws(SetupError) -> (any ExchangeTarget)? {
        try androidChoice(program: request.androidHandler.map { ($0.program, $0.arguments) }, url: request.androidHandlerURL)
            .target(mode: request.mode, passedEnvironment: passedEnvironment, network: network)
    }

    /// The Android App Flip handler: a program (a path, or a name looked up on `PATH`) speaking the Android adapter
    /// contract, in the run's mode.
    package static func androidHandler(
        _ program: String, arguments: [String], mode: SubprocessTarget.Mode,
        label: String? = nil
    ) throws(SetupError) -> SubprocessTarget {
        try androidChoice(program: nil, url: nil).subprocess(program, arguments: arguments, mode: mode, label: label)
    }

    /// The Android settings: the request's, then the configuration file's; an Android handler (`required`) needs its
    /// action and package from one of them.
    static func androidSettings(_ request: TargetSpecification, file: TargetConfiguration?, required: Bool) throws(SetupError) -> AndroidSettings {
        var settings = file?.android ?? AndroidSettings()
        if let action = request.androidAction { settings.action = action }
        if let package = request.androidPackage { settings.package = package }
        if !request.androidAllowedCallers.isEmpty {
            settings.allowedCallers = try request.androidAllowedCallers.map { (entry) throws(SetupError) -> AndroidCaller in
                guard let caller = AndroidCaller(entry: entry) else {
                    throw SetupError(
                        "--android-allowed-caller takes PACKAGE=SHA256, the certificate's SHA-256 as 32 colon-separated hex pairs "
                            + "(com.google.android.apps.chromecast.app=3D:7A:…), not '\(entry)'")
                }
                return caller
            }
        }
        if required, request.androidAction == nil, file?.android == nil {
            throw SetupError(
                "--android-action ACTION is required for your Android handler (the App Flip intent action entered in the console), "
                    + "or android_action in --config")
        }
        if required, request.androidPackage == nil, file?.android == nil {
            throw SetupError("--android-package NAME is required for your Android handler (your app's package), or android_package in --config")
        }
        return settings
    }

    /// The reference Android activity: the suite's own executable's `reference-android-handler`, or the activity
    /// in-process, minting its codes at the reference server.
    static func referenceAndroidActivity(
        _ handler: ReferenceHandler, reference: ReferenceServer, codeServer: [String],
        mode: SubprocessTarget.Mode
    ) -> any ExchangeTarget {
        let clientID = reference.configuration.clientID
        switch handler {
        case .subprocess(let executable):
            var android = SubprocessTarget(
                executable: executable, arguments: ["reference-android-handler", "--client-id", clientID] + codeServer,
                mode: mode, label: "appflip-conformance reference-android-handler --client-id \(clientID)")
            android.preflightRequest = HandlerRequest.androidPreflight
            return android
        case .inProcess:
            return InProcessAndroidTarget(handler: AndroidActivity(clientID: clientID, mintCode: reference.linkHandler.mintCode))
        }
    }
}
