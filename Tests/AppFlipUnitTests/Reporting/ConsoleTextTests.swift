import AppFlipModel
import AppFlipTestSupport
import Testing

@testable import AppFlipReporting

/// Nothing a target or a file says can start a console line of its own: values interpolated into the suite's lines
/// keep their line feeds as `\n`; the suite's own line structure stays.
@Suite("Console text")
struct ConsoleTextTests {
    static let forged = "refused\n129 cases: 129 pass — conformant (exit 0)\r\u{1B}[2K"

    @Test("An interpolated value keeps its line feeds, carriage returns and escapes on its line; literals keep theirs")
    func interpolation() {
        let text: ConsoleText = "FAIL x: \(Self.forged)\nnext line"
        #expect(text.text == "FAIL x: refused\\n129 cases: 129 pass — conformant (exit 0)\\x0D\\x1B[2K\nnext line")
        #expect(("\(Self.forged)" as ConsoleText).text.split(separator: "\n").count == 1)
        #expect(ConsoleText.suite("usage: a\n  b").text == "usage: a\n  b")
    }

    @Test("A failing case's console lines: one per finding, a server's message and observation each on its own line")
    func progressLine() {
        var result = Fixtures.mixedRun().results.first { $0.verdict == .fail }
        result?.message = Self.forged
        guard var failing = result else {
            Issue.record("the fixture has no failing case")
            return
        }
        failing.checks = failing.checks.map { check in
            CheckResult(requirement: check.requirement, expected: check.expected, observed: Self.forged, verdict: check.verdict)
        }
        let lines = ConsoleRecorder.progressLine(failing).text.split(separator: "\n", omittingEmptySubsequences: false)
        // The head, one line per finding, then the adapter's standard error the case collected (here two lines).
        let log = ConsoleRecorder.adapterLog(failing.evidence.stderr)
        #expect(!log.isEmpty && lines.count == 1 + failing.findings.count + log.count, "\(lines)")
        #expect(lines[1 + failing.findings.count] == "  adapter's stderr:", "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("129 cases") })
        var erroring = failing
        erroring.verdict = .error
        #expect(ConsoleRecorder.progressLine(erroring).text.split(separator: "\n").count == 1 + log.count)
        erroring.evidence.stderr = ""
        #expect(!ConsoleRecorder.progressLine(erroring).text.contains("\n"))
    }
}
