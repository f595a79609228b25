import AppFlipTestSupport
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
        headers.fields[1].name = "Content-Location"
        #expect(headers["location"] == nil && headers["CONTENT-location"] == "/x", "a renamed field is found by its new name")
        #expect(headers["\u{212A}-é"] == nil && HTTPHeaders([("k", "1")])["\u{212A}"] == "1", "the Kelvin sign lower-cases to k")
    }

    @Test("Names match as lowercased() would on 20,000 seeded pairs, non-ASCII that lower-cases to ASCII included")
    func sameNameSeeded() {
        let pieces = [
            "a", "A", "k", "K", "\u{212A}", "-", "x", "X", "\u{C9}", "\u{E9}", "\u{301}", "\u{130}", "i", "s", "S", "\u{DF}", "[", "{", "@", "`",
        ]
        var random = Mutator(seed: 0x4E41_4D45)
        for _ in 0..<20_000 {
            let one = (0..<random.below(5)).map { _ in pieces[random.below(pieces.count)] }.joined()
            let other = random.below(3) == 0 ? one.uppercased() : (0..<random.below(5)).map { _ in pieces[random.below(pieces.count)] }.joined()
            guard HTTPHeaders.sameName(one, other) == (one.lowercased() == other.lowercased()) else {
                Issue.record("\(one.debugDescription) vs \(other.debugDescription)")
                return
            }
        }
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
