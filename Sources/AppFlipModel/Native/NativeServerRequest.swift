/// A request the test authorization server received, as the native-client checks judge it.
package struct NativeServerRequest: Sendable, Hashable {
    package var method: String
    package var target: String
    package var body: [UInt8]
    package var contentType: String?

    package init(method: String, target: String, body: [UInt8], contentType: String?) {
        self.method = method
        self.target = target
        self.body = body
        self.contentType = contentType
    }

    package var path: Substring { target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "" }
    /// The form body's parameters (token and revocation requests).
    package var form: [QueryParameter] { QueryParameter.parse(query: String(decoding: body, as: UTF8.self)) }

    /// The decoded value of `name` in the form body when it appears exactly once.
    package func formValue(_ name: String) -> String? { form.singleText(named: name) }

    /// A token request (`POST /token`) with `grant_type`.
    package func isTokenRequest(grant: String) -> Bool { method == "POST" && path == "/token" && formValue("grant_type") == grant }
}
