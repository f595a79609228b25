import AppFlipModel
import AppFlipRunner
import AppFlipSetup
import Foundation

/// Turns the command line into a `TargetSpecification`, and that into what a run talks to (`RunSetup`).
enum TargetArguments {
    /// `--target reference`: the reference server on a loopback port, and this binary's reference handler and
    /// native client as subprocesses.
    static func reference(
        _ parsed: Arguments, mode: SubprocessTarget.Mode, seed: UInt64, scope: String,
        redirectURI: String
    ) throws(Arguments.UsageError) -> RunSetup {
        guard parsed.value(ifGiven: .config) == nil, parsed.value(ifGiven: .handlerURL) == nil, !parsed.hasSeparator,
            parsed.value(ifGiven: .androidHandler) == nil, parsed.value(ifGiven: .androidHandlerURL) == nil
        else {
            throw Arguments.UsageError(
                message: "--target reference cannot be combined with --config, --handler-url, --android-handler(-url) or a handler command")
        }
        // The reference's https is trusted through the CA it makes for the run, and it answers its own hosts: a CA
        // file or a mapping would change nothing, and saying nothing would let a reader think they were used.
        guard parsed.values(.handlerEnv).isEmpty else {
            throw Arguments.UsageError(message: "--target reference takes no --handler-env: its adapters need nothing from your environment")
        }
        guard parsed.value(ifGiven: .caFile) == nil, parsed.value(ifGiven: .resolve) == nil else {
            throw Arguments.UsageError(
                message: "--target reference trusts the CA it makes for the run and answers its own hosts: "
                    + "--ca-file and --resolve are for your own https target")
        }
        guard let executable = Bundle.main.executablePath else {
            throw Arguments.UsageError(message: "cannot locate this executable to start the reference handler")
        }
        var request = TargetSpecification(redirectURI: redirectURI, mode: mode, seed: seed)
        request.clientID = try parsed.value(.clientID)
        request.link = try parsed.value(.link)
        request.scope = scope
        // The reference native client: a private-use-scheme redirect in one-shot mode, a loopback listener in
        // persistent mode, so the main job's two runs cover both.
        let nativeClient = NativeClientTarget(
            executable: executable, arguments: ["reference-native-client", "--redirect", mode == .oneShot ? "scheme" : "loopback"])
        do {
            return try RunSetup.reference(request, handler: .subprocess(executable: executable), nativeClient: nativeClient, answersLinkHost: true)
        } catch {
            throw Arguments.UsageError(message: error.message, details: error.details)
        }
    }

    /// A partner's target: flags, then the configuration file for whatever the flags leave out.
    static func partner(
        _ parsed: Arguments, mode: SubprocessTarget.Mode, seed: UInt64, scope: String?,
        redirectURI: String
    ) throws(Arguments.UsageError) -> RunSetup {
        var request = TargetSpecification(redirectURI: redirectURI, mode: mode, seed: seed)
        request.configurationFile = try parsed.value(.config)
        request.clientID = try parsed.value(.clientID)
        request.link = try parsed.value(.link)
        request.scope = scope
        request.handlerURL = try parsed.value(.handlerURL)
        if parsed.hasSeparator { request.handlerCommand = parsed.command }
        try nativeApp(parsed, into: &request)
        try androidActivity(parsed, into: &request)
        request.caFile = try parsed.value(.caFile)
        request.resolve = parsed.values(.resolve)
        request.handlerEnvironment = parsed.values(.handlerEnv)
        do {
            return try RunSetup.partner(request)
        } catch {
            throw Arguments.UsageError(message: error.message, details: error.details)
        }
    }
}

extension Arguments {
    /// The single value of an option, ignoring a repeat (for checks that only ask whether it was given).
    func value(ifGiven option: CommandOption) -> String? { values(option).first }
}
