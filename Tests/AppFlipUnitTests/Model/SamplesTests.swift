import AppFlipLoading
import AppFlipModel
import AppFlipSyntax
import Foundation
import Testing

/// `--samples N` changes the repeat of exactly what a sampling check judges: a repeated step, or a repeated case
/// whose samples span its steps; a case without sampling checks is untouched.
@Suite("Samples")
struct SamplesTests {
    private func load(_ text: String) throws -> ConformanceCase {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("samples-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try text.write(toFile: directory + "/a.case", atomically: true, encoding: .utf8)
        return try #require(CaseLoader.load(from: directory, catalog: nil).cases.first)
    }

    @Test("A repeated sampling step takes N samples; its other steps keep their count")
    func stepRepeat() throws {
        let sampled = try load(
            """
            id: s/step
            title: t
            profile: native-client
            scenario: consent
            steps:
              - sign_in: default
                repeat: 5
                capture:
                  state: url.state
                checks:
                  - requirement: NAT-STATE-001 SHOULD
                    expect:
                      distinct: state
              - refresh: default
                repeat: 3
                checks:
                  - requirement: NAT-TOK-004 MUST
                    expect:
                      app: refreshed

            """
        ).sampled(12)
        #expect(sampled.takesSamples)
        #expect(sampled.steps.map(\.repeatCount) == [12, 3])
        #expect(sampled.repeatCount == 1)
    }

    @Test("A repeated case whose samples span its steps repeats N times; a case without samples is unchanged")
    func caseRepeat() throws {
        let spanningText = """
            id: s/case
            title: t
            profile: native-client
            scenario: consent
            repeat: 4
            steps:
              - sign_in: default
                capture:
                  challenge: url.code_challenge
                checks:
                  - requirement: NAT-PKCE-002 MUST
                    expect:
                      distinct: challenge

            """
        let spanning = try load(spanningText)
        #expect(spanning.sampled(9).repeatCount == 9)
        #expect(spanning.sampled(9).steps.map(\.repeatCount) == [1])
        // The same case judging the exchange rather than a sample.
        let plain = try load(
            spanningText.replacingOccurrences(of: "s/case", with: "s/none")
                .replacingOccurrences(of: "NAT-PKCE-002", with: "NAT-TOK-001")
                .replacingOccurrences(of: "distinct: challenge", with: "token_request: well-formed"))
        #expect(!plain.takesSamples)
        #expect(plain.sampled(9) == plain)
    }
}
