import AppFlipBase
import AppFlipModel
import AppFlipReference
import AppFlipRunner
import AppFlipSetup
import AppFlipTestSupport
import Foundation
import Testing

/// Test traffic must not be recognisable: a "test mode" adapter must not be able to answer from a lookup table.
@Suite("Opaque test traffic")
struct OpaqueTrafficTests {
    /// Records every request it is sent, and answers as the reference handler.
    final class RecordingTarget: ExchangeTarget, ExchangeSession, @unchecked Sendable {
        private let requests = Locked<[HandlerRequest]>([])
        private let inner = InProcessTarget(handler: LinkHandler(clientID: SuiteRun.configuration.clientID)).makeSession()

        var description: String { "recording" }
        var seen: [HandlerRequest] { requests.withLock { $0 } }
        func makeSession() -> any ExchangeSession { self }
        func close() {}

        func exchange(_ request: HandlerRequest, timeout: Double) -> TargetExchange {
            requests.withLock { requests in
                requests.append(request)
                return inner.exchange(request, timeout: timeout)
            }
        }
    }

    private func record(seed: UInt64) throws -> (cases: [ConformanceCase], requests: [HandlerRequest]) {
        let cases = Array(try SuiteRun.load().1.cases.filter { $0.profile == .appLink }.prefix(40))
        var configuration = SuiteRun.configuration
        configuration.seed = seed
        let target = RecordingTarget()
        _ = try SuiteRun.run(TargetUnderTest(adapters: [.linkHandler: target]), cases: cases, configuration: configuration)
        return (cases, target.seen)
    }

    @Test("The adapter never sees a case ID; request ids are unique and opaque")
    func requestIDsAreOpaque() throws {
        let (cases, requests) = try record(seed: 7)
        #expect(requests.count >= cases.count)
        #expect(Set(requests.map(\.id)).count == requests.count, "request ids repeat")
        let words = Set(cases.flatMap { $0.id.split(separator: "/").map(String.init) }.filter { $0.count > 3 })
        for request in requests {
            #expect(!cases.contains { $0.id == request.id })
            #expect(!words.contains { request.id.contains($0) }, "\(request.id) carries a word of a case ID")
        }
    }

    @Test("Another seed gives other request ids and other states; the same seed gives the same ones")
    func seedChangesTraffic() throws {
        let first = try record(seed: 7).requests
        let again = try record(seed: 7).requests
        let other = try record(seed: 8).requests
        #expect(Set(first.map(\.id)) == Set(again.map(\.id)))
        #expect(Set(first.map(\.id)).isDisjoint(with: Set(other.map(\.id))))
        #expect(Set(first.map(\.link)) != Set(other.map(\.link)), "the state must change with the seed")
    }
}
