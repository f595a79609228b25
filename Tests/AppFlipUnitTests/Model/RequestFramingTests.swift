import AppFlipHTTP
import Testing

@testable import AppFlipModel

/// TOK-GEN-008: which requests go alone, and how the follow-up on their connection is read.
@Suite("Request framing")
struct RequestFramingTests {
    @Test("A body on a method that gives it no meaning, or framing set by hand, may desync; an ordinary request does not")
    func mayDesync() {
        let form = Array("a=b".utf8)
        for method in ["GET", "HEAD", "DELETE", "OPTIONS", "TRACE", "get"] {
            #expect(HTTPRequest(method: method, target: "/token", body: form).mayDesync, "\(method)")
            #expect(!HTTPRequest(method: method, target: "/token").mayDesync, "\(method) without a body")
        }
        #expect(!HTTPRequest(method: "POST", target: "/token", body: form).mayDesync)
        #expect(HTTPRequest(method: "POST", target: "/token", headers: HTTPHeaders([("Content-Length", "3")]), body: form).mayDesync)
        #expect(HTTPRequest(method: "POST", target: "/token", headers: HTTPHeaders([("transfer-encoding", "chunked")]), body: form).mayDesync)
    }

    @Test("Closed, or answered as on a fresh connection, passes; answered otherwise warns; nothing to compare with judges nothing")
    func readings() {
        let probe = "GET /token with a 3-byte body"
        let closed = RequestFraming.check(probe: probe, followUp: .closed, fresh: nil)
        #expect(closed.verdict == .pass && closed.isApplicable)
        #expect(RequestFraming.check(probe: probe, followUp: .answered(status: 405), fresh: .answered(status: 405)).verdict == .pass)
        let desync = RequestFraming.check(probe: probe, followUp: .answered(status: 501), fresh: .answered(status: 405))
        #expect(
            desync.verdict == .warn && desync.requirement.id == "TOK-GEN-008"
                && desync.observed.contains("answered 501 where a fresh connection got 405"))
        let garbled = RequestFraming.check(probe: probe, followUp: .noAnswer("invalid status line"), fresh: .answered(status: 405))
        #expect(garbled.verdict == .warn && garbled.observed.contains("invalid status line"))
        for fresh: RequestFraming.FollowUp? in [.noAnswer("timed out"), .closed, nil] {
            #expect(!RequestFraming.check(probe: probe, followUp: .answered(status: 501), fresh: fresh).isApplicable)
        }
    }
}
