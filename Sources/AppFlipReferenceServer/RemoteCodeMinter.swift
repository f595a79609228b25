import AppFlipHTTP
import AppFlipReference
import AppFlipTLS
import Foundation

/// Mints the reference link handler's codes at a reference server (`POST /reference/flip-code`), so the server's
/// token endpoint redeems them: how `--code-server URL` joins a handler process to a server process.
package enum RemoteCodeMinter {
    /// A minting function for `LinkHandler.mintCode`, or nil when `url` is not an http(s) URL. When the server
    /// cannot be reached the code is minted locally (it will not redeem) and the failure is written to stderr, so
    /// the cause shows in the handler's log excerpt.
    /// `authority` (PEM text) is trusted for an https server: the reference's CA, made in memory for one run.
    package static func minter(url: String, authority: String? = nil) -> (@Sendable (String, String?) -> String)? {
        guard let (origin, target) = HTTPOrigin.split(url) else { return nil }
        let network = Network(trust: authority.map { TLSTrust.system.adding(pem: $0) } ?? .system)
        return { redirectURI, scope in
            switch mint(origin: origin, target: target, redirectURI: redirectURI, scope: scope, network: network) {
            case .success(let code):
                return code
            case .failure(let problem):
                let message = "reference handler: cannot mint a code at \(url): \(problem.message); this code will not redeem\n"
                try? FileHandle.standardError.write(contentsOf: Data(message.utf8))
                return CodeMinter.mint()
            }
        }
    }

    private static func mint(
        origin: HTTPOrigin, target: String, redirectURI: String, scope: String?, network: Network
    ) -> Result<String, HTTPClient.Failure> {
        do {
            let client = try HTTPClient(origin: origin, network: network, timeouts: HTTPClient.Timeouts(connect: 2, total: 5))
            defer { client.close() }
            var form = "redirect_uri=" + QueryCodec.encode(Array(redirectURI.utf8))
            if let scope { form += "&scope=" + QueryCodec.encode(Array(scope.utf8)) }
            let request = HTTPRequest(
                method: "POST", target: target, headers: HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")]),
                body: Array(form.utf8))
            let response = try client.send(request)
            guard response.status == 200 else { return .failure(HTTPClient.Failure(message: "HTTP \(response.status)")) }
            return .success(String(decoding: response.body, as: UTF8.self))
        } catch {
            return .failure(error)
        }
    }
}
