import AppFlipBase
import AppFlipModel
import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipReporting

/// The console while a run goes: failures listed, passes only when asked, nothing when quiet; on a terminal a
/// status line updated in place and colours, unless NO_COLOR says otherwise.
@Suite("Run progress")
struct RunProgressTests {
    final class Raw: @unchecked Sendable {
        private let text = Locked("")
        var output: String { text.withLock { $0 } }
        func console(terminal: Bool) -> Console {
            Console(
                out: { _ in }, err: { line in self.text.withLock { $0 += line + "\n" } },
                rawErr: { chunk in self.text.withLock { $0 += chunk } }, errIsTerminal: terminal)
        }
    }

    private let results = Fixtures.mixedRun().results

    private func show(_ verbosity: RunProgress.Verbosity, terminal: Bool, color: Bool) -> String {
        let raw = Raw()
        let progress = RunProgress(console: raw.console(terminal: terminal), total: results.count, verbosity: verbosity, color: color)
        for result in results {
            progress.finished(
                result,
                line: result.verdict == .pass || result.verdict == .skip
                    ? nil : "\(result.verdict.rawValue.uppercased()) \(result.conformanceCase.id)")
        }
        progress.finish()
        return raw.output
    }

    @Test("Not a terminal: plain lines for what did not pass, passes only with --verbose, nothing with --quiet")
    func plain() {
        let normal = show(.normal, terminal: false, color: false)
        #expect(normal.contains("FAIL app-link/demo/fail\n") && !normal.contains("PASS") && !normal.contains("\u{1B}"), "\(normal)")
        let verbose = show(.verbose, terminal: false, color: false)
        #expect(verbose.contains("PASS app-link/demo/pass ("), "\(verbose)")
        #expect(show(.quiet, terminal: false, color: false).isEmpty)
    }

    @Test("A terminal: the status line is updated in place, cleared at the end, and verdicts are coloured")
    func terminal() {
        let text = show(.normal, terminal: true, color: true)
        #expect(text.contains("\r\u{1B}[2K[5/5] "), "\(text.debugDescription)")
        #expect(text.contains("\u{1B}[31mFAIL\u{1B}[0m app-link/demo/fail\n"), "\(text.debugDescription)")
        #expect(text.hasSuffix("\r\u{1B}[2K"))
        let uncoloured = show(.normal, terminal: true, color: false)
        #expect(uncoloured.contains("[5/5]") && !uncoloured.contains("\u{1B}[3"), "\(uncoloured.debugDescription)")
    }

    @Test("Colour: auto means a terminal without NO_COLOR (set and not empty) or TERM=dumb; always and never decide")
    func colorChoice() {
        #expect(RunProgress.ColorChoice.auto.enabled(isTerminal: true, environment: [:]))
        #expect(!RunProgress.ColorChoice.auto.enabled(isTerminal: true, environment: ["NO_COLOR": "1"]))
        #expect(RunProgress.ColorChoice.auto.enabled(isTerminal: true, environment: ["NO_COLOR": ""]))
        #expect(!RunProgress.ColorChoice.auto.enabled(isTerminal: true, environment: ["TERM": "dumb"]))
        #expect(!RunProgress.ColorChoice.auto.enabled(isTerminal: false, environment: [:]))
        #expect(RunProgress.ColorChoice.always.enabled(isTerminal: false, environment: ["NO_COLOR": "1"]))
        #expect(!RunProgress.ColorChoice.never.enabled(isTerminal: true, environment: [:]))
    }
}
