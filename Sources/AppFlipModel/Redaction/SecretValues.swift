import AppFlipBase
import AppFlipRedaction
import Foundation

/// What counts as a secret, collected where it is met: the configured credentials (and the Basic header values
/// built from them), token-like values in an HTTP answer, and the codes and tokens a native app sends. `Redactor`
/// hides whatever these give; "what is secret" and "how it is hidden" live here together.
package enum SecretValues {
    /// The configured secrets and, for each client, its Basic credentials (base64 of `id:secret`, raw and
    /// form-encoded), which a server that echoes its request headers would otherwise show.
    package static func configured(_ secrets: [String], clients: [(id: String, secret: String)]) -> [String] {
        let basic = clients.flatMap { id, secret in
            [id + ":" + secret, FormEncoding.encode(id) + ":" + FormEncoding.encode(secret)].map { Data($0.utf8).base64EncodedString() }
        }
        return secrets + basic
    }

    /// Token-like values in an HTTP answer (a redirect's Location, a JSON body's credentials at any depth, every
    /// occurrence of a repeated member: `SecretPositions`), so they are hidden wherever they show up later.
    package static func inAnswer(_ response: HTTPObservation) -> [String] {
        var found: [String] = []
        if let location = response.header("Location") { found += Redaction.secrets(in: location) }
        let start = response.body.firstIndex { !(" \t\r\n".utf8.contains($0)) }
        if let start, response.body[start] == UInt8(ascii: "{") || response.body[start] == UInt8(ascii: "[") {
            found += SecretPositions.inAnswer(String(decoding: response.body, as: UTF8.self))
        }
        return found
    }

    /// The codes, verifiers and tokens a native app sent the test authorization server, and the credential it says
    /// it would present.
    package static func inNativeTraffic(_ requests: [NativeServerRequest], authorization: String?) -> [String] {
        requests.flatMap { request in ["code", "code_verifier", "refresh_token", "token"].compactMap { request.formValue($0) } }
            + [authorization].compactMap { $0 }
    }
}
