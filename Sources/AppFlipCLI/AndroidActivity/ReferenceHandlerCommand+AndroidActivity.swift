import AppFlipReference
import AppFlipReferenceServer
import AppFlipReporting

extension ReferenceHandlerCommand {
    /// `reference-android-handler` (internal): the reference Android App Flip activity behind the Android adapter
    /// contract, taking the same options as `reference-handler`.
    static func android(_ arguments: [String], console: Console) -> Int32 {
        switch ReferenceArguments.parseOptions(arguments) {
        case .failure(let error):
            console.err("error: \(error.message)\n\(ReferenceArguments.usage)")
            return 2
        case .success(let options):
            var activity = AndroidActivity(clientID: options.clientID, mintCode: { _, _ in CodeMinter.mint() })
            if let server = options.codeServer, let minter = RemoteCodeMinter.minter(url: server, authority: options.codeServerCA) {
                activity.mintCode = minter
            }
            return AdapterLoop.serve(activity)
        }
    }
}
