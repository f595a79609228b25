import AppFlipBase
import Foundation

/// A request the test authorization server received, as the native-client checks judge it.
package struct NativeServerRequest: Sendable, Hashable {
    package var method: String
    package var target: String
    package var body: [UInt8]
    package var contentType: String?
    /// The `Authorization` header, when the app sent one (HTTP Basic client authentication).
    package var authorization: String?
    /// The certificate of the https listener the request came over (nil: the plain http one): a request over a
    /// certificate the app must refuse means it accepted that certificate.
    package var certificate: NativeServerScript.TokenCertificate?

    package init(method: String, target: String, body: [UInt8], contentType: String?, authorization: String? = nil) {
        self.method = method
        self.target = target
        self.body = body
        self.contentType = contentType
        self.authorization = authorization
    }

    /// How the request identifies (and authenticates) its client, per RFC 6749 §2.3.1: HTTP Basic with the client ID
    /// and secret (each form-encoded), or `client_id` (with `client_secret`, or alone for a public client) in the
    /// body. Basic with a `client_secret` in the body authenticates twice, which §2.3 forbids; a `client_id` in the
    /// body beside Basic names the same client or contradicts it.
    package enum ClientIdentity: Sendable, Hashable {
        case basic(id: String, secret: String)
        case body(id: String, secret: String?)
        /// No client at all: neither Basic nor `client_id`.
        case none
        /// Basic and `client_secret` in the body, or a body `client_id` other than Basic's, or a Basic header that
        /// does not decode.
        case conflicting(String)

        /// The client ID, when the request names exactly one client.
        package var clientID: String? {
            switch self {
            case .basic(let id, _), .body(let id, _): id
            case .none, .conflicting: nil
            }
        }

        /// The secret the request presents, if any (a public client presents none).
        package var secret: String? {
            switch self {
            case .basic(_, let secret): secret
            case .body(_, let secret): secret
            case .none, .conflicting: nil
            }
        }
    }

    package var clientIdentity: ClientIdentity {
        let bodyID = formValue("client_id")
        let bodySecret = formValue("client_secret")
        guard let authorization, authorization.lowercased().hasPrefix("basic ") else {
            guard let bodyID, !bodyID.isEmpty else { return .none }
            return .body(id: bodyID, secret: bodySecret)
        }
        let encoded = authorization.dropFirst("basic ".count).trimmingCharacters(in: .whitespaces)
        guard let data = Data(base64Encoded: encoded), let pair = String(data: data, encoding: .utf8), let colon = pair.firstIndex(of: ":"),
            let id = Self.formDecoded(pair[..<colon]), let secret = Self.formDecoded(pair[pair.index(after: colon)...])
        else {
            return .conflicting("an Authorization: Basic header that is not base64 of client_id:client_secret")
        }
        if bodySecret != nil { return .conflicting("client authentication twice: HTTP Basic and client_secret in the body (RFC 6749 §2.3)") }
        if let bodyID, bodyID != id { return .conflicting("HTTP Basic names client \(id), the body's client_id another") }
        return .basic(id: id, secret: secret)
    }

    /// `application/x-www-form-urlencoded` decoding of one value (`+` a space), as RFC 6749 §2.3.1 encodes Basic's parts.
    private static func formDecoded(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    package var path: Substring { target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "" }
    /// The form body's parameters (token and revocation requests).
    package var form: [QueryParameter] { QueryParameter.parse(query: String(decoding: body, as: UTF8.self)) }

    /// The decoded value of `name` in the form body when it appears exactly once.
    package func formValue(_ name: String) -> String? { form.singleText(named: name) }

    /// A token request (`POST /token`) with `grant_type`.
    package func isTokenRequest(grant: String) -> Bool { method == "POST" && path == "/token" && formValue("grant_type") == grant }
}
