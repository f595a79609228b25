/// An HTTP/1.1 response as received (client side) or to be sent (server side).
package struct HTTPResponse: Sendable, Hashable {
    package var status: Int
    package var reason: String
    package var headers: HTTPHeaders
    package var body: [UInt8]

    package init(status: Int, reason: String? = nil, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.reason = reason ?? HTTPResponse.standardReason(status)
        self.headers = headers
        self.body = body
    }

    /// The bytes on the wire, with `Content-Length` added when absent.
    package func serialized() -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(reason)\r\n"
        for field in headers { head += "\(field.name): \(field.value)\r\n" }
        if headers["Content-Length"] == nil, headers["Transfer-Encoding"] == nil { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    package static func standardReason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 302: "Found"
        case 303: "See Other"
        case 307: "Temporary Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 413: "Content Too Large"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
