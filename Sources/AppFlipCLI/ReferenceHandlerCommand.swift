import AppFlipReference
import AppFlipReferenceClient
import AppFlipReferenceServer
import AppFlipReporting

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
            if let server = options.codeServer, let minter = RemoteCodeMinter.minter(url: server, authority: options.codeServerCA) {
                handler.mintCode = minter
            }
            return AdapterLoop.serve(handler)
        }
    }
}
