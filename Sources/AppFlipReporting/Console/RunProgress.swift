import AppFlipBase
import AppFlipModel
import Foundation

/// What a run shows while it goes: one line per case that did not pass (every case with `--verbose`, none with
/// `--quiet`) and, on a terminal, a status line `[n/N] 12 pass · 1 fail` updated in place below them. Verdicts are
/// coloured on a terminal unless `NO_COLOR` is set or `--color never` is given.
package final class RunProgress: Sendable {
    package enum Verbosity: Sendable {
        case quiet, normal, verbose
    }

    /// `--color auto|always|never`.
    package enum ColorChoice: String, Sendable, CaseIterable {
        case auto, always, never

        /// Whether to colour: `always` and `never` decide; `auto` colours a terminal unless `NO_COLOR` is set
        /// (to anything but the empty string, per no-color.org) or `TERM` is `dumb`.
        package func enabled(isTerminal: Bool, environment: [String: String]) -> Bool {
            switch self {
            case .always: return true
            case .never: return false
            case .auto: return isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
            }
        }
    }

    private let console: Console
    private let total: Int
    private let verbosity: Verbosity
    private let color: Bool
    private let live: Bool
    /// The counts so far and the status line's state; held while writing, so lines never interleave.
    private struct State {
        var done = 0
        var counts: [Verdict: Int] = [:]
        var statusShown = false
        var lastStatus = 0.0
    }

    private let state = Locked(State())

    package init(console: Console, total: Int, verbosity: Verbosity, color: Bool) {
        self.console = console
        self.total = total
        self.verbosity = verbosity
        self.color = color
        // In place only on a terminal, and not when asked to be quiet.
        live = console.errIsTerminal && verbosity != .quiet
    }

    /// A case finished: its line (when there is one to show) above the status line.
    package func finished(_ result: CaseResult, line: ConsoleText?) {
        state.withLock { state in
            state.done += 1
            state.counts[result.verdict, default: 0] += 1
            let shown = verbosity == .quiet ? nil : (line ?? (verbosity == .verbose ? passLine(result) : nil))
            if let shown { write(shown, verdict: result.verdict, &state) }
            // At most ten updates a second (and always the last): a terminal is not a log.
            let now = ProcessInfo.processInfo.systemUptime
            if live, !state.statusShown || state.done == total || now - state.lastStatus >= 0.1 {
                showStatus(&state)
                state.lastStatus = now
            }
        }
    }

    /// A line that belongs above the status line (a repeated error counted, a summary).
    package func print(_ line: ConsoleText, verdict: Verdict? = nil) {
        state.withLock { write(line, verdict: verdict, &$0) }
    }

    /// Takes the status line away before the final lines.
    package func finish() {
        state.withLock { state in
            if state.statusShown { console.rawErr("\r\u{1B}[2K") }
            state.statusShown = false
        }
    }

    private func passLine(_ result: CaseResult) -> ConsoleText {
        "\(result.verdict.rawValue.uppercased()) \(result.conformanceCase.id) (\(String(format: "%.2f", result.duration)) s)"
    }

    private func write(_ line: ConsoleText, verdict: Verdict?, _ state: inout State) {
        if state.statusShown { console.rawErr("\r\u{1B}[2K") }
        state.statusShown = false
        guard color || live else {
            console.err(line)  // a plain line: the console neutralises it and ends it
            return
        }
        var text = TerminalText.neutralize(line.text)
        if color, let verdict, let code = Self.colors[verdict] {
            // The verdict word in colour when the line starts with it; otherwise the whole line.
            let word = verdict.rawValue.uppercased()
            text = text.hasPrefix(word) ? "\u{1B}[\(code)m\(word)\u{1B}[0m" + text.dropFirst(word.count) : "\u{1B}[\(code)m\(text)\u{1B}[0m"
        }
        console.rawErr(text + "\n")
    }

    private func showStatus(_ state: inout State) {
        let order: [Verdict] = [.pass, .warn, .fail, .error, .skip]
        let parts = order.compactMap { verdict -> String? in
            guard let count = state.counts[verdict], count > 0 else { return nil }
            let text = "\(count) \(verdict.rawValue)"
            guard color, let code = Self.colors[verdict] else { return text }
            return "\u{1B}[\(code)m\(text)\u{1B}[0m"
        }
        console.rawErr("\r\u{1B}[2K[\(state.done)/\(total)] " + parts.joined(separator: " · "))
        state.statusShown = true
    }

    /// SGR colours: green pass, cyan info, yellow warn, dim skip, red fail, magenta error.
    private static let colors: [Verdict: String] = [.pass: "32", .info: "36", .warn: "33", .skip: "2", .fail: "31", .error: "35"]
}
