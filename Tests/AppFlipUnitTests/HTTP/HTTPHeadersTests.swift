@testable import AppFlipHTTP
import Testing

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
