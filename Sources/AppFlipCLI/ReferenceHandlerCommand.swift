import AppFlipHTTP
import AppFlipReference
import AppFlipSystem
import Foundation

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
            if let server = options.codeServer, let (origin, target) = HTTPOrigin.split(server) {
                handler.mintCode = { redirectURI, scope in
                    mint(origin: origin, target: target, redirectURI: redirectURI, scope: scope) ?? CodeMinter.mint()
                }
            }
            return AdapterLoop.serve(handler)
        }
    }

    private static func mint(origin: HTTPOrigin, target: String, redirectURI: String, scope: String?) -> String? {
        guard let client = try? HTTPClient(origin: origin, timeouts: HTTPClient.Timeouts(connect: 2, total: 5)) else { return nil }
        defer { client.close() }
        var form = "redirect_uri=" + QueryCodec.encode(Array(redirectURI.utf8))
        if let scope { form += "&scope=" + QueryCodec.encode(Array(scope.utf8)) }
        let request = HTTPRequest(method: "POST", target: target, headers: HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")]),
                                  body: Array(form.utf8))
        guard let response = try? client.send(request), response.status == 200 else { return nil }
        return String(decoding: response.body, as: UTF8.self)
    }
}
