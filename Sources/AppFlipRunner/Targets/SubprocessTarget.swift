import AppFlipBase
import AppFlipModel
import AppFlipSystem
import Foundation

/// An adapter run as a subprocess speaking a JSON Lines contract (its requests' payloads say which). Never started
/// through a shell.
package struct SubprocessTarget: ExchangeTarget {
    package enum Mode: String, Sendable, CaseIterable {
        /// A fresh process per case; stdin closes after the one request.
        case oneShot = "one-shot"
        /// One process per worker, requests one after another; restarted if it dies or hangs.
        case persistent
    }

    /// The absolute path of the executable and its arguments.
    package var executable: String
    package var arguments: [String]
    package var mode: Mode
    /// The environment the handler gets (see `minimalEnvironment`).
    package var environment: [String]
    /// The longest answer line accepted.
    package var lineLimit: Int
    /// How much stderr is kept as evidence.
    package var stderrLimit: Int
    /// The most unread output held from the handler: past it, reading stops and the case is an error.
    package var outputLimit: Int { 2 * lineLimit + 64 * 1024 }
    /// What the report calls this target.
    package var label: String
    package var program: (executable: String, arguments: [String])? { (executable, arguments) }
    /// Extra seconds a newly started persistent handler has for its first answer (its start-up: a runtime to
    /// load, a cache to warm), so start-up under load is not charged to the first case as a timeout.
    package var startupAllowance: Double = 10
    /// The processes this target starts, as one unit to end (`endProcesses`); copies share it.
    package let containment = ContainmentScope.make()
    /// The first-answer times of the persistent handlers started for the first time by a worker.
    package let startups = HandlerStartups()
    /// What `preflight` sends: a request of the target's contract that asks nothing of App Flip (its contract's
    /// `…Preflight` request; a link handler's by default).
    package var preflightRequest = HandlerRequest.linkPreflight

    package init(
        executable: String, arguments: [String], mode: Mode, environment: [String] = SubprocessTarget.minimalEnvironment(),
        lineLimit: Int = 1 << 20, stderrLimit: Int = 64 * 1024, label: String? = nil
    ) {
        self.executable = executable
        self.arguments = arguments
        self.mode = mode
        self.environment = environment
        self.lineLimit = lineLimit
        self.stderrLimit = stderrLimit
        self.label = label ?? ([executable] + arguments).joined(separator: " ")
    }

    package var description: String { "subprocess \(label) (\(mode.rawValue))" }

    package func makeSession() -> any ExchangeSession {
        SubprocessSession(target: self)
    }

    package func endProcesses() {
        ProcessGroups.killAll(scope: containment)
    }

    /// Starts the handler once and sends it a link that is no App Flip request (it should decline it), with at least
    /// 10 s to answer whatever the case timeout: any answer line, usable or not, shows it runs; a start that fails, or a process that ends or hangs without a line, is
    /// said once, with its standard error, instead of once per case.
    package func preflight(timeout: Double) -> String? {
        var probe = self
        probe.mode = .oneShot
        let session = probe.makeSession()
        defer { session.close() }
        let exchange = session.exchange(
            preflightRequest,
            timeout: max(timeout, 10) + (mode == .persistent ? startupAllowance : 0))
        guard let failure = exchange.failure, exchange.rawAnswer.isEmpty, !exchange.answerUnusable else { return nil }
        let log = exchange.log.trimmingCharacters(in: .whitespacesAndNewlines)
        return "the handler did not answer a first request before the run: \(failure)"
            + (log.isEmpty ? "" : "; its standard error: " + String(log.prefix(600)))
    }

    package func startupReport(timeout: Double) -> (policy: String, measured: String?)? {
        guard mode == .persistent else {
            return ("one-shot: a new process per case, its start-up within the case's \(secondsText(timeout)) s", nil)
        }
        let policy =
            "persistent: each worker's first handler has \(secondsText(startupAllowance)) s to start on top of its first "
            + "case's \(secondsText(timeout)) s; a restarted handler has none"
        let (count, slowest) = startups.measured
        guard count > 0 else { return (policy, nil) }
        let used = slowest > timeout ? ", beyond the case timeout: the allowance was used" : ""
        return (policy, "\(count) first start\(count == 1 ? "" : "s"), the slowest answered after \(secondsText(slowest)) s\(used)")
    }

    /// The variables a handler gets: PATH, HOME, TMPDIR and the locale ones, when set; nothing else.
    package static func minimalEnvironment(from environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        ["PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "LC_CTYPE"].compactMap { name in
            environment[name].map { "\(name)=\($0)" }
        }
    }

    /// Resolves a command name the way a shell would look it up (PATH search when it has no `/`), without a shell.
    package static func resolve(_ command: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        let manager = FileManager.default
        if command.contains("/") {
            let absolute = command.hasPrefix("/") ? command : manager.currentDirectoryPath + "/" + command
            return manager.isExecutableFile(atPath: absolute) && !isDirectory(absolute) ? (absolute as NSString).standardizingPath : nil
        }
        for directory in (path ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = String(directory) + "/" + command
            if manager.isExecutableFile(atPath: candidate), !isDirectory(candidate) { return candidate }
        }
        return nil
    }

    private static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }
}

/// One worker's use of a subprocess target.
final class SubprocessSession: ExchangeSession {
    private let target: SubprocessTarget
    private var process: ChildProcess?
    /// The id of the request this session sent before the current one (persistent mode).
    private var previousRequestID: String?
    /// Set while reading when a line answers the previous request again.
    private var lateExtraAnswer: String?
    /// Whether this session has started a process before (only the first start-up gets the allowance).
    private var startedOnce = false
    /// When the first process was started, until its first answer is measured.
    private var startBegan: Double?

    init(target: SubprocessTarget) {
        self.target = target
        Platform.ignoreSIGPIPE()
    }

    func close() {
        process?.closeStdin()
        if let process { _ = process.waitForExit(deadline: Platform.monotonicSeconds() + 1) }
        process?.kill()
        process = nil
    }

    func exchange(_ request: HandlerRequest, timeout: Double) -> TargetExchange {
        var deadline = Platform.monotonicSeconds() + timeout
        var child: ChildProcess
        var previousFault: String?
        // A persistent handler still writing after its answer (a flood) is out of step: the fault is its previous
        // request's, and it is replaced, so what it writes next cannot pass for this request's answer.
        var replace = false
        // Whether the persistent handler still runs: asked once a case (one wait4), for both questions below.
        let running = target.mode == .persistent && process.map { !$0.reap() } == true
        if let existing = process, running {
            let stale = existing.takeUnrequestedOutput()
            if !stale.allSatisfy({ $0 == 0x0A || $0 == 0x0D || $0 == 0x20 }) {
                replace = existing.flooded || stale.count >= Self.floodThreshold
                previousFault = Self.wroteMore(stale, flooded: existing.flooded ? existing.stdoutLimit : nil)
            }
        }
        let reused: Bool
        if let existing = process, running, !replace {
            child = existing
            reused = true
        } else {
            switch launch(&deadline, timeout: timeout) {
            case .success(let started): child = started
            case .failure(let failed): return failed.exchange
            }
            reused = false
        }
        child.resetStderr()
        lateExtraAnswer = nil
        var outcome = exchange(request, with: child, deadline: deadline, timeout: timeout)
        if reused, outcome.outOfStep {
            // What the handler wrote after its previous answer reached the pipe only after this request went out (a
            // flood seen late): the same fault as one seen before, charged there; this request goes to a fresh
            // handler, as it would have had the flood been seen first. The same handler gets the same verdicts.
            previousFault = previousFault ?? "the handler wrote more after its answer (lines that answer nothing); one answer line per request"
            switch launch(&deadline, timeout: timeout) {
            case .success(let started): child = started
            case .failure(let failed): return failed.exchange
            }
            child.resetStderr()
            lateExtraAnswer = nil
            outcome = exchange(request, with: child, deadline: deadline, timeout: timeout)
        }
        if let began = startBegan {
            if outcome.isAnswered { target.startups.record(Platform.monotonicSeconds() - began) }
            startBegan = nil
        }
        outcome.previousRequestFault = previousFault ?? lateExtraAnswer
        previousRequestID = target.mode == .persistent ? request.id : nil
        if target.mode == .oneShot || outcome.failure != nil {
            if outcome.failure == nil {
                _ = child.waitForExit(deadline: min(deadline, Platform.monotonicSeconds() + 0.5))
                let extra = child.takeUnrequestedOutput()
                if child.flooded {
                    outcome.refuse(
                        "the handler wrote more than \(target.outputLimit) bytes of output for one request; reading stopped "
                            + "there and the handler's process group was killed")
                } else if target.mode == .oneShot, !extra.allSatisfy({ $0 == 0x0A || $0 == 0x0D || $0 == 0x20 }) {
                    outcome.refuse(
                        "the handler wrote more than one answer line (\(extra.count) more bytes: "
                            + ByteText.display(extra, limit: 120) + "); the contract is one answer line per request")
                }
            }
            child.kill()
            process = nil
        }
        outcome.log = log(of: child)
        return outcome
    }

    /// A launch that failed, as the case's exchange.
    private struct LaunchFailure: Error {
        var exchange: TargetExchange
    }

    /// Starts a handler process in place of the current one.
    private func launch(_ deadline: inout Double, timeout: Double) -> Result<ChildProcess, LaunchFailure> {
        process?.kill()
        let child: ChildProcess
        do {
            child = try ChildProcess.launch(
                path: target.executable, arguments: target.arguments,
                environment: target.environment, scope: target.containment,
                stdoutLimit: target.outputLimit, stderrLimit: target.stderrLimit)
        } catch {
            process = nil
            var failed = TargetExchange(failure: error.message)
            failed.suiteFault = error.suiteFault
            return .failure(LaunchFailure(exchange: failed))
        }
        process = child
        // A persistent handler's first start-up is its own, not the first case's: that case's time starts after
        // it. A replacement (after a crash or a hang) gets none, so a handler that hangs every time costs each
        // case its timeout only.
        if target.mode == .persistent, !startedOnce {
            deadline = Platform.monotonicSeconds() + timeout + target.startupAllowance
            startBegan = Platform.monotonicSeconds()
        }
        startedOnce = true
        return .success(child)
    }

    /// The previous request's fault for output written after its answer; a flood's size (timing's) said as a bound.
    private static func wroteMore(_ stale: [UInt8], flooded limit: Int?) -> String {
        let size =
            limit.map { "more than \($0) bytes" } ?? (stale.count >= floodThreshold ? "at least \(floodThreshold) bytes" : "\(stale.count) bytes")
        return "the handler wrote more after its answer (\(size): " + ByteText.display(stale, limit: 120) + "); one answer line per request"
    }

    private func exchange(_ request: HandlerRequest, with child: ChildProcess, deadline: Double, timeout: Double) -> TargetExchange {
        guard child.write(request.jsonLine, deadline: deadline) else {
            if Platform.monotonicSeconds() >= deadline {
                return TargetExchange(failure: "the handler did not read the request within \(secondsText(timeout)) s")
            }
            _ = child.waitForExit(deadline: min(deadline, Platform.monotonicSeconds() + 0.5))
            return TargetExchange(failure: "the handler closed its input before reading the request" + exitSuffix(child))
        }
        if target.mode == .oneShot { child.closeStdin() }
        var result = child.readLine(deadline: deadline, limit: target.lineLimit)
        // Each line is read as JSON once; its id and its answer come from that reading.
        var line = Self.answerLine(result)
        // A persistent handler's extra answer to the previous request may arrive late: charge it to that request.
        while let current = line, let previous = previousRequestID, previous != request.id, current.id == previous {
            lateExtraAnswer = "the handler answered this request a second time, after the next request was sent"
            result = child.readLine(deadline: deadline, limit: target.lineLimit)
            line = Self.answerLine(result)
        }
        // A stray line the handler wrote after its previous answer may reach the pipe only after this request went
        // out. When the line is not an answer at all and a real answer for this request follows at once, the stray
        // line is the previous request's fault and this request keeps its answer.
        if let stray = line, previousRequestID != nil, stray.id == nil,
            case .line(let nextBytes) = child.readLine(
                deadline: min(deadline, Platform.monotonicSeconds() + Self.strayLineGrace), limit: target.lineLimit)
        {
            let next = AnswerParser.Line(nextBytes)
            if next.id == request.id {
                lateExtraAnswer =
                    "the handler wrote more after its answer (" + ByteText.display(stray.bytes, limit: 120) + "); one answer line per request"
                result = .line(nextBytes)
                line = next
            } else {
                var failed = TargetExchange(
                    failure: "unusable answer: a line that is not an answer, then one that does not answer this request",
                    rawAnswer: TargetExchange.raw(stray.bytes))
                failed.outOfStep = true
                failed.answerUnusable = true
                return failed
            }
        }
        switch result {
        case .line(let bytes):
            return AnswerParser.exchange(line ?? AnswerParser.Line(bytes), for: request, rawAnswer: TargetExchange.raw(bytes))
        case .endOfOutput(let partial):
            _ = child.waitForExit(deadline: min(deadline, Platform.monotonicSeconds() + 0.5))
            let what = partial.isEmpty ? "without answering" : "after a partial answer line (\(partial.count) bytes, no newline)"
            var crashed = TargetExchange(
                failure: "the handler closed its output \(what)" + exitSuffix(child),
                rawAnswer: TargetExchange.raw(partial))
            crashed.crash = crashed.failure
            return crashed
        case .timedOut(let partial):
            let what = partial.isEmpty ? "no answer" : "only a partial answer line (\(partial.count) bytes)"
            return TargetExchange(
                failure: "timed out after \(secondsText(timeout)) s with \(what); the handler's process group was killed",
                rawAnswer: TargetExchange.raw(partial))
        case .tooLong(let limit):
            return TargetExchange(failure: "the answer line exceeded \(limit) bytes; the handler's process group was killed")
        case .flooded(let limit):
            return TargetExchange(
                failure: "the handler wrote more than \(limit) bytes of output without a usable answer line; reading stopped "
                    + "there and the handler's process group was killed")
        }
    }

    /// The answer line a read gave, read as JSON, or nil when the read gave no line.
    private static func answerLine(_ result: ChildProcess.LineResult) -> AnswerParser.Line? {
        if case .line(let bytes) = result { return AnswerParser.Line(bytes) }
        return nil
    }

    /// Unrequested output of this size or more is said as "at least" this much (a flood's size depends on timing).
    static let floodThreshold = 64 * 1024

    /// How long a line that is not an answer may be followed by the real answer before it counts as the answer.
    static let strayLineGrace = 0.05

    private func exitSuffix(_ child: ChildProcess) -> String {
        child.exit.map { " (the process \($0.description))" } ?? ""
    }

    private func log(of child: ChildProcess) -> String {
        var text = String(decoding: child.stderr, as: UTF8.self)
        if child.stderrDropped > 0 { text += "\n… [stderr truncated: \(child.stderrDropped) more bytes]" }
        return text
    }
}
