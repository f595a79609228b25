import AppFlipBase
import AppFlipModel
import AppFlipRedaction
import AppFlipSystem
import Foundation

/// A native app (or the adapter around its sign-in code) run as a subprocess speaking the native-client contract:
/// one JSON command per line in, one JSON answer per line out. One process per case, since a flow's state (the
/// pending request, the tokens) lives in the app; never started through a shell.
package struct NativeClientTarget: AdapterTarget {
    package var executable: String
    package var arguments: [String]
    package var environment: [String]
    package var lineLimit = 1 << 20
    package var stderrLimit = 64 * 1024
    package let containment = ContainmentScope.make()

    package init(executable: String, arguments: [String], environment: [String] = SubprocessTarget.minimalEnvironment()) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
    }

    package var description: String { "native client " + ([executable] + arguments).joined(separator: " ") }

    package func makeSession() -> NativeClientSession { NativeClientSession(target: self) }

    package func endProcesses() { ProcessGroups.killAll(scope: containment) }

    package var program: (executable: String, arguments: [String])? { (executable, arguments) }
}

/// One case's conversation with the app: the process starts with the first command and ends with `close()`.
package final class NativeClientSession {
    private let target: NativeClientTarget
    private var process: ChildProcess?

    init(target: NativeClientTarget) {
        self.target = target
        Platform.ignoreSIGPIPE()
    }

    /// Writes `command` with a fresh opaque id; returns the id, or why it could not be sent.
    package func send(_ command: NativeCommand, deadline: Double) -> Result<String, NativeFailure> {
        if process == nil {
            do {
                process = try ChildProcess.launch(
                    path: target.executable, arguments: target.arguments, environment: target.environment,
                    scope: target.containment, stdoutLimit: 2 * target.lineLimit + 64 * 1024,
                    stderrLimit: target.stderrLimit)
            } catch {
                return .failure(NativeFailure(message: error.message, suiteFault: error.suiteFault))
            }
        }
        guard let process else { return .failure(NativeFailure(message: "no app process")) }
        var generator = SystemRandomNumberGenerator()
        let id = String((0..<16).map { _ in Array("abcdefghijklmnopqrstuvwxyz0123456789")[Int(generator.next() % 36)] })
        guard process.write(command.jsonLine(id: id), deadline: deadline) else {
            return .failure(NativeFailure(message: "the app did not read the \(command.name) command" + exitSuffix(process)))
        }
        return .success(id)
    }

    /// Reads the answer to `id` until `deadline`.
    package func receive(_ id: String, command: String, deadline: Double) -> Result<NativeAnswer, NativeFailure> {
        guard let process else { return .failure(NativeFailure(message: "no app process")) }
        switch process.readLine(deadline: deadline, limit: target.lineLimit) {
        case .line(let line):
            return NativeAnswer.parse(line, expectedID: id).mapError {
                NativeFailure(message: "unusable answer to \(command): \($0.message)", answer: line)
            }
        case .endOfOutput(let partial):
            _ = process.waitForExit(deadline: min(deadline, Platform.monotonicSeconds() + 0.5))
            return .failure(
                NativeFailure(
                    message: "the app closed its output without answering \(command)" + exitSuffix(process),
                    answer: partial))
        case .timedOut(let partial):
            return .failure(NativeFailure(message: "no answer to \(command) in time", answer: partial))
        case .tooLong(let limit):
            return .failure(NativeFailure(message: "the answer to \(command) exceeded \(limit) bytes"))
        case .flooded(let limit):
            return .failure(
                NativeFailure(
                    message: "the app wrote more than \(limit) bytes of output without a usable answer to \(command); "
                        + "reading stopped there"))
        }
    }

    package func exchange(_ command: NativeCommand, timeout: Double) -> Result<NativeAnswer, NativeFailure> {
        let deadline = Platform.monotonicSeconds() + timeout
        return send(command, deadline: deadline).flatMap { receive($0, command: command.name, deadline: deadline) }
    }

    /// The app's stderr so far, as evidence.
    package var log: String { process.map { String(decoding: $0.stderr, as: UTF8.self) } ?? "" }

    package func close() {
        process?.closeStdin()
        if let process { _ = process.waitForExit(deadline: Platform.monotonicSeconds() + 1) }
        process?.kill()
        process = nil
    }

    private func exitSuffix(_ process: ChildProcess) -> String {
        process.reap() ? " (the process \(process.exit?.description ?? "ended"))" : ""
    }
}

/// Why a command got no usable answer: the app's fault (a case error), or the suite's own.
package struct NativeFailure: Error, Sendable, Hashable {
    package var message: String
    /// What came instead of an answer, cut for display.
    package var rawAnswer = ""
    /// What stands where a secret would in what came (`SecretPositions`), read from all of it before it was cut.
    package var secrets: [String] = []
    package var suiteFault = false

    package init(message: String, rawAnswer: String = "", suiteFault: Bool = false) {
        self.message = message
        self.rawAnswer = rawAnswer
        self.suiteFault = suiteFault
    }

    /// A failure showing `bytes` (cut to 400 for display), with the secrets they hold.
    init(message: String, answer bytes: [UInt8]) {
        self.init(message: message, rawAnswer: ByteText.display(bytes, limit: 400))
        secrets = SecretPositions.inAnswer(String(decoding: bytes, as: UTF8.self))
    }
}
