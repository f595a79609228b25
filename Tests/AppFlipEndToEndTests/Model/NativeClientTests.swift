import AppFlipModel
import AppFlipRunner
import AppFlipTestSupport
import Testing

@Suite("Native client configuration")
struct NativeClientTests {
    @Test("The loopback URI gets another port; IPv6 and explicit ports are kept apart; the scheme URI is found")
    func derivedURIs() {
        #expect(NativeClient(id: "n", redirectURIs: ["http://127.0.0.1/callback"]).loopbackURIWithOtherPort == "http://127.0.0.1:51004/callback")
        #expect(NativeClient(id: "n", redirectURIs: ["http://[::1]:8080/cb"]).loopbackURIWithOtherPort == "http://[::1]:51004/cb")
        #expect(NativeClient(id: "n", redirectURIs: ["http://127.0.0.1:51004/x"]).loopbackURIWithOtherPort == "http://127.0.0.1:51005/x")
        let scheme = NativeClient(id: "n", redirectURIs: ["https://app.example/cb", "com.example.app:/oauth2redirect"])
        #expect(scheme.loopbackURI == nil)
        #expect(scheme.schemeURI == "com.example.app:/oauth2redirect")
    }

    @Test("Cases that need a native client are skipped with the reason when none is configured, or it lacks the URI")
    func skippedWithReason() throws {
        let cases = try SuiteRun.load().1.cases.filter { $0.needs.contains { [.nativeClient, .nativeLoopback, .nativeScheme].contains($0) } }
        #expect(cases.count >= 5)
        let none = try SuiteRun.run(TargetUnderTest(endpoints: [.authorize: "http://127.0.0.1:9/a", .token: "http://127.0.0.1:9/t"]), cases: cases)
        #expect(none.results.allSatisfy { $0.verdict == .skip && ($0.message ?? "").contains("native_client_id") })
        var configuration = SuiteRun.configuration
        configuration.nativeClient = NativeClient(id: "n", redirectURIs: ["com.example.app:/cb"])
        let schemeOnly = try SuiteRun.run(
            TargetUnderTest(endpoints: [.authorize: "http://127.0.0.1:9/a", .token: "http://127.0.0.1:9/t"]),
            cases: cases.filter { $0.needs == [.nativeLoopback] }, configuration: configuration)
        #expect(schemeOnly.results.allSatisfy { $0.verdict == .skip && ($0.message ?? "").contains("loopback") })
    }
}
