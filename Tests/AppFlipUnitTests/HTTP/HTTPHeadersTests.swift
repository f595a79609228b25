import Testing

@testable import AppFlipHTTP

/// Header names compare case-insensitively without lower-casing a copy on every look-up.
@Suite("Header names")
struct HTTPHeadersTests {
    @Test("Names match as lowercased() would: ASCII folded, other characters by their lower case")
    func sameName() {
        let pairs: [(String, String)] = [
            ("Location", "location"), ("SET-COOKIE", "Set-Cookie"), ("X-A", "X-B"), ("Content-Length", "Content-Lengt"), ("", ""),
            ("a", ""), ("Cookie", "Cookie2"), ("[", "{"), ("@", "`"), ("X-É", "x-é"), ("X-É", "X-E"), ("İ", "i̇"), ("ß", "SS"),
            ("Ω", "ω"), ("X-\u{301}", "x-\u{301}"), ("x", "X\u{301}"),
        ]
        for (one, other) in pairs {
            #expect(HTTPHeaders.sameName(one, other) == (one.lowercased() == other.lowercased()), "\(one) vs \(other)")
            #expect(HTTPHeaders.sameName(other, one) == (one.lowercased() == other.lowercased()), "\(other) vs \(one)")
        }
        var headers = HTTPHeaders([("Set-Cookie", "a=1"), ("LOCATION", "/x"), ("set-cookie", "b=2")])
        headers.append("X-É", "é")
        #expect(headers.values("set-cookie") == ["a=1", "b=2"])
        #expect(headers["Location"] == "/x")
        #expect(headers["x-é"] == "é")
        #expect(headers["Locatio"] == nil)
    }
}

/// What evidence shows as sent is what goes on the wire.
@Suite("Request header lines")
struct RequestHeaderLinesTests {
    @Test("headerLines(host:) lists the header lines serialized(host:) writes, in its order")
    func sameAsTheWire() {
        let requests = [
            HTTPRequest(method: "GET", target: "/a"),
            HTTPRequest(
                method: "POST", target: "/token", headers: HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")]),
                body: Array("a=1".utf8)),
            HTTPRequest(
                method: "POST", target: "/x", headers: HTTPHeaders([("host", "other"), ("Transfer-Encoding", "chunked")]),
                body: Array("0\r\n\r\n".utf8)),
            HTTPRequest(method: "PUT", target: "/y", headers: HTTPHeaders([("Content-Length", "9"), ("X-A", "1"), ("X-A", "2")]), body: [1]),
        ]
        for request in requests {
            let wire = String(decoding: request.serialized(host: "h.example:8443"), as: UTF8.self)
            let head = wire.components(separatedBy: "\r\n\r\n")[0].components(separatedBy: "\r\n").dropFirst()
            #expect(Array(head) == request.headerLines(host: "h.example:8443").map { "\($0.name): \($0.value)" }, "\(request.target)")
        }
    }
}
