import AppFlipModel
import AppFlipRedaction
import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipRunner

/// Redaction's placeholder style belongs to a run, not to the process: two runs in one process (the library's test
/// runner) each write theirs, on every thread the runner starts and in the checks it adds at the end.
@Suite("Placeholder style a run")
struct PlaceholderStyleTests {
    /// Every text of a run's results, as one string.
    static func texts(_ results: [CaseResult]) -> String {
        results.map { "\($0.message ?? "")\n\($0.checks)\n\($0.evidence)" }.joined(separator: "\n")
    }

    @Test("A run bound to plain placeholders writes no fingerprint while another run in the process writes them")
    func twoRuns() async throws {
        // The same code in every answer: it shows in the evidence, and the run's end adds a check that names it.
        let cases = try Array(SuiteRun.load().1.cases.filter { $0.profile == .appLink && DeferredJudgement.applies(to: $0) }.prefix(12))
        let target = SubprocessTarget(
            executable: BuiltProducts.path("broken-handler"), arguments: ["--defect", "fixed-code"], mode: .persistent)
        let runner = Runner(configuration: SuiteRun.configuration, timeout: 5, jobs: 2)
        async let plain = Task { Redaction.$style.withValue(.plain) { Self.texts(runner.run(cases, on: target)) } }.value
        async let fingerprinted = Task { Self.texts(runner.run(cases, on: target)) }.value
        let (plainTexts, fingerprintedTexts) = await (plain, fingerprinted)
        #expect(plainTexts.contains("‹redacted›") && !plainTexts.contains("‹redacted hmac:"), "\(plainTexts.prefix(2000))")
        #expect(fingerprintedTexts.contains("‹redacted hmac:") && !fingerprintedTexts.contains("‹redacted›"))
    }
}
