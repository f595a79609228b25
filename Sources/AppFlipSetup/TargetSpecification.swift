import AppFlipModel
import AppFlipRunner

/// What a run is pointed at, as the command line, the environment (`APPFLIP_*`) or the library says it: the pieces
/// `RunSetup` turns into what a run talks to.
package struct TargetSpecification: Sendable {
    /// A target configuration file (`--config`, `APPFLIP_CONFIG`), for whatever the other fields leave out.
    package var configurationFile: String?
    /// The link handler's command line, started directly (never through a shell).
    package var handlerCommand: [String]?
    /// The link handler's HTTP URL (`--handler-url`, `APPFLIP_HANDLER_URL`).
    package var handlerURL: String?
    /// The native client's program and arguments (`--native-client`, `--native-client-arg`).
    package var nativeClient: (program: String, arguments: [String])?
    /// The Android App Flip handler's program and arguments (`--android-handler`, `--android-handler-arg`), started
    /// directly (never through a shell), in `mode`.
    package var androidHandler: (program: String, arguments: [String])?
    /// The Android handler's HTTP URL (`--android-handler-url`): each request POSTed there, the answer read back.
    package var androidHandlerURL: String?
    /// The console's App Flip intent action and the partner's package (`--android-action`, `--android-package`), for
    /// whatever the configuration file leaves out.
    package var androidAction: String?
    /// `--ca-file`: a staging CA trusted for https besides the system's store (the configuration's `ca_file` otherwise).
    package var caFile: String?
    /// `--resolve HOST:PORT:ADDRESS` mappings, before the configuration's `resolve`.
    package var resolve: [String] = []
    package var androidPackage: String?
    /// `--android-allowed-caller PACKAGE=SHA256` entries: the callers the activity allows, replacing the
    /// configuration's `android_allowed_callers` (the Google app alone when neither gives any).
    package var androidAllowedCallers: [String] = []
    /// `--handler-env NAME`: variables of the suite's environment passed to every adapter the run starts (their
    /// values redacted everywhere), besides the configuration's `handler_env`.
    package var handlerEnvironment: [String] = []
    package var link: String?
    package var clientID: String?
    package var scope: String?
    package var redirectURI: String
    package var mode: SubprocessTarget.Mode
    package var seed: UInt64

    /// What the specification names first: a handler command, an Android handler, a handler URL, a configuration file.
    package var description: String {
        handlerCommand.map { "handler command \($0.joined(separator: " "))" }
            ?? androidHandler.map { "Android handler \(([$0.program] + $0.arguments).joined(separator: " "))" }
            ?? androidHandlerURL.map { "Android handler at \($0)" }
            ?? handlerURL.map { "handler at \($0)" } ?? configurationFile.map { "configuration \($0)" } ?? "target"
    }

    package init(
        redirectURI: String = AllowedFlipURIs.default, mode: SubprocessTarget.Mode = .oneShot,
        seed: UInt64 = UInt64.random(in: 1...UInt64(Int64.max))
    ) {
        self.redirectURI = redirectURI
        self.mode = mode
        self.seed = seed
    }
}
