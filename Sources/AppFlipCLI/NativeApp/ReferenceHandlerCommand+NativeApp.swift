import AppFlipReferenceClient
import AppFlipReporting

extension ReferenceHandlerCommand {
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
