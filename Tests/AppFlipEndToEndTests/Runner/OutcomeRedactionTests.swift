import AppFlipModel
import AppFlipRedaction
import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipRunner

/// A case's outcome is redacted as it is written, once, with no pass over the whole result at its end: what it
/// records is redacted with every secret known then, a secret met later is looked for in what was recorded before
/// it, and the checks and the message are redacted when the case ends. Each test holds one of those steps: without
/// it the secret shows.
@Suite("A case's outcome redacted as it is written")
struct OutcomeRedactionTests {
    static let secret = "late-S3CR3T/token+value=="

    /// The forms a secret is looked for in (raw, percent-encoded, base64, hex), as Foundation writes them.
    static func forms(of secret: String) -> [String] {
        let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        return [
            secret, secret.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "", Data(secret.utf8).base64EncodedString(),
            secret.utf8.map { String(format: "%02x", $0) }.joined(),
        ]
    }

    /// Every text of `evidence`, headers included, one per line.
    static func texts(of evidence: Evidence) -> String {
        ([evidence.link, evidence.answer, evidence.stderr] + evidence.exchanges.map { $0.rendered(times: false) }).joined(separator: "\n")
    }

    static func leaks(_ text: String) -> [String] {
        forms(of: secret).filter { text.contains($0) || text.contains($0.prefix(12)) }
    }

    /// An outcome that has recorded each kind of evidence, every text showing the secret in each of its forms.
    static func recorded(knowing known: [String]) -> StepExecutor.Outcome {
        var outcome = StepExecutor.Outcome(redactor: Redactor(secrets: known))
        let shown = forms(of: secret).joined(separator: " ")
        outcome.record(
            Evidence.Exchange(
                "GET /pages?x=" + shown, requestHeaders: Evidence.headers([("X-Echo", shown)]),
                responseHeaders: Evidence.headers([("X-Trace", shown)])),
            then: outcome.redactor.excerpt("body: " + shown, limit: 64))
        outcome.recordLink("https://app.example/flip?note=" + shown, limit: 1024)
        outcome.recordAnswer("opened " + shown, limit: nil)
        outcome.recordStderr("log: " + shown, limit: 4096)
        outcome.recordPreviousRequestFault("extra line: " + shown)
        outcome.checks = [
            CheckResult(
                requirement: RequirementReference(id: "AF-LINK-005", level: .mustNot), expected: "no " + shown, observed: "saw " + shown,
                verdict: .fail)
        ]
        return outcome
    }

    @Test("What is recorded is redacted there with every secret known then: each text, each header, each excerpt")
    func recordedWithKnownSecrets() {
        let outcome = Self.recorded(knowing: [Self.secret])
        #expect(Self.leaks(Self.texts(of: outcome.evidence)).isEmpty, "\(Self.texts(of: outcome.evidence))")
        #expect(Self.leaks(outcome.previousRequestFault ?? "").isEmpty)
        #expect(Self.texts(of: outcome.evidence).contains("GET /pages?x="), "the rest of the text stays")
    }

    @Test("A secret met after evidence was recorded is hidden in that evidence too, in every form")
    func learntLater() {
        var outcome = Self.recorded(knowing: [])
        #expect(!Self.leaks(Self.texts(of: outcome.evidence)).isEmpty, "recorded before the secret was known, it shows")
        outcome.learn([Self.secret])
        #expect(Self.leaks(Self.texts(of: outcome.evidence)).isEmpty, "\(Self.texts(of: outcome.evidence))")
        #expect(Self.leaks(outcome.previousRequestFault ?? "").isEmpty)
        // Prepared on another thread (an answer read ahead), the same.
        var prepared = Self.recorded(knowing: [])
        prepared.learn([Self.secret].compactMap(Redactor.PreparedSecret.init))
        #expect(prepared.evidence == outcome.evidence && prepared.previousRequestFault == outcome.previousRequestFault)
    }

    @Test("Learning a secret already known changes nothing that was recorded")
    func learntTwice() {
        var outcome = Self.recorded(knowing: [Self.secret])
        let before = outcome.evidence
        outcome.learn([Self.secret])
        #expect(outcome.evidence == before)
    }

    @Test("The checks are redacted when the case ends, with the secrets met after they were judged")
    func checksAtTheEnd() {
        var state = StepExecutor.CaseState(redactor: Redactor())
        state.outcome = Self.recorded(knowing: [])
        state.outcome.learn([Self.secret])
        let checks = state.finished.checks
        #expect(checks.count == 1)
        #expect(Self.leaks(checks.map { $0.expected + " " + $0.observed }.joined()).isEmpty, "\(checks)")
    }

    @Test("A case's result says the secret nowhere: its message and run fault are redacted as the runner writes them")
    func resultMessage() {
        var state = StepExecutor.CaseState(redactor: Redactor())
        state.outcome = Self.recorded(knowing: [])
        state.outcome.record(.suite("the adapter wrote " + Self.forms(of: Self.secret).joined(separator: " ")))
        state.outcome.learn([Self.secret])
        let finished = Runner.Worker.finished(Fixtures.conformanceCase("app-link/demo/one"), state.finished, duration: 0)
        let result = finished.result
        let everything =
            [result.message ?? "", result.runFault.map { "\($0)" } ?? "", Self.texts(of: result.evidence), finished.previousCaseFault ?? ""]
            + result.checks.map { $0.expected + " " + $0.observed }
        #expect(result.verdict == .error)
        #expect(result.message?.contains("the adapter wrote") == true)
        #expect(Self.leaks(everything.joined(separator: "\n")).isEmpty, "\(everything)")
    }
}
