/// An HTTP/1.1 request, written exactly as given: the request target goes on the wire byte for byte.
package struct HTTPRequest: Sendable, Hashable {
    package var method: String
    /// The request target as sent: `/authorize?client_id=a&client_id=b&x=%ZZ`. Never normalized or re-encoded.
    package var target: String
    package var headers: HTTPHeaders
    package var body: [UInt8]

    package init(method: String, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }

    /// The bytes on the wire. `Host` is added first when absent; `Content-Length` when there is a body and no
    /// framing header.
    package func serialized(host: String) -> [UInt8] {
        var head = "\(method) \(target) HTTP/1.1\r\n"
        if headers["Host"] == nil { head += "Host: \(host)\r\n" }
        for field in headers { head += "\(field.name): \(field.value)\r\n" }
        if !body.isEmpty, headers["Content-Length"] == nil, headers["Transfer-Encoding"] == nil {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    /// The path part of the target (before `?`).
    package var path: Substring { target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "" }

    /// The raw query (after the first `?`), or nil.
    package var query: Substring? {
        guard let mark = target.firstIndex(of: "?") else { return nil }
        return target[target.index(after: mark)...]
    }
}
