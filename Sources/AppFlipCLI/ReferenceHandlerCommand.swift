import AppFlipReference
import AppFlipReferenceClient
import AppFlipReferenceServer

/// `reference-handler` (internal): the reference link handler behind the adapter contract, used by
/// `--target reference`. With `--code-server URL` its codes are minted by the reference server so they redeem.
enum ReferenceHandlerCommand {
    static func main(_ arguments: [String], console: Console) -> Int32 {
        switch ReferenceArguments.parseOptions(arguments) {
        case .failure(let error):
            console.err("error: \(error.message)\n\(ReferenceArguments.usage)")
            return 2
        case .success(let options):
            var handler = LinkHandler(clientID: options.clientID)
            if let server = options.codeServer, let minter = RemoteCodeMinter.minter(url: server, authority: options.codeServerCA) { handler.mintCode = minter }
            return AdapterLoop.serve(handler)
        }
    }

    /// `reference-android-handler` (internal): the reference Android App Flip activity behind the Android adapter
    /// contract, taking the same options as `reference-handler`.
    static func android(_ arguments: [String], console: Console) -> Int32 {
        switch ReferenceArguments.parseOptions(arguments) {
        case .failure(let error):
            console.err("error: \(error.message)\n\(ReferenceArguments.usage)")
            return 2
        case .success(let options):
            var activity = AndroidActivity(clientID: options.clientID, mintCode: { _, _ in CodeMinter.mint() })
            if let server = options.codeServer, let minter = RemoteCodeMinter.minter(url: server, authority: options.codeServerCA) { activity.mintCode = minter }
            return AndroidAdapterLoop.serve(activity)
        }
    }

    /// `reference-native-client [--redirect scheme|loopback]` (internal): the reference native client.
    static func nativeClient(_ arguments: [String], console: Console) -> Int32 {
        var mode = NativeClientApp.RedirectMode.scheme
        if arguments.count == 2, arguments[0] == "--redirect", let chosen = NativeClientApp.RedirectMode(rawValue: arguments[1]) {
            mode = chosen
        } else if !arguments.isEmpty {
            console.err("error: reference-native-client takes only --redirect scheme|loopback")
            return 2
        }
        return NativeClientLoop.serve(NativeClientApp(mode: mode))
    }
}
