import AppFlipHTTP
import AppFlipTestSupport
import Testing

/// A request target's path and query (`HTTPRequest.path`, `.query`): split at its first `?` character, as the
/// character-by-character reading split it, whatever sits beside a `?` byte.
@Suite("Request target")
struct HTTPRequestTargetTests {
    @Test("Path and query split as the character reading split them, on 5,000 seeded targets with non-ASCII beside `?`")
    func oracle() {
        let pieces = [
            "/authorize", "?", "a=1", "&", "é", "\u{301}", "\u{600}", "\u{200D}", "\r", "\n", "??", "#", "中", "%3F", "/", "x",
        ]
        var random = Mutator(seed: 1206)
        for _ in 0..<5_000 {
            let target = (0..<random.below(8)).map { _ in pieces[random.below(pieces.count)] }.joined()
            let request = HTTPRequest(method: "GET", target: target)
            let split = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            let mark = target.firstIndex(of: "?")
            guard request.path == (split.first ?? ""), request.query == mark.map({ target[target.index(after: $0)...] }) else {
                Issue.record("\(target.debugDescription): path \(request.path.debugDescription), query \(String(describing: request.query))")
                return
            }
        }
    }

    @Test("A plain target splits at its first `?`")
    func plain() {
        let request = HTTPRequest(method: "GET", target: "/authorize?client_id=a&state=b?c")
        #expect(request.path == "/authorize")
        #expect(request.query == "client_id=a&state=b?c")
        #expect(HTTPRequest(method: "GET", target: "/").query == nil)
        #expect(HTTPRequest(method: "GET", target: "/").path == "/")
    }
}
