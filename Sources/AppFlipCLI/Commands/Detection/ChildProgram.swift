import AppFlipBase
import AppFlipSystem
import Foundation

/// A program detection starts: never through a shell, its output to a file (or, for a server, its first line read),
/// stopped with SIGKILL when it outlives its bound.
final class ChildProgram: Sendable {
    private let process: Process
    private let lines: Pipe?

    private init(process: Process, lines: Pipe?) {
        self.process = process
        self.lines = lines
    }

    /// Starts `executable` with `arguments`, this process's environment plus `environment`; standard output and error
    /// go to `output`, or (nil) standard output to a pipe `firstLine` reads.
    static func start(_ executable: String, _ arguments: [String], environment: [String: String], output: URL?) throws -> ChildProgram {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        process.standardInput = FileHandle.nullDevice
        var pipe: Pipe?
        if let output {
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            let handle = try FileHandle(forWritingTo: output)
            process.standardOutput = handle
            process.standardError = handle
        } else {
            let made = Pipe()
            process.standardOutput = made
            process.standardError = FileHandle.nullDevice
            pipe = made
        }
        try process.run()
        return ChildProgram(process: process, lines: pipe)
    }

    /// The first line the program writes, within `seconds`; nil when it writes none in time (or ends first).
    func firstLine(seconds: Double) -> String? {
        guard let handle = lines?.fileHandleForReading else { return nil }
        let found = FirstLine()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var line = Data()
            while !line.contains(0x0A), line.count < 4096 {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                line.append(chunk)
            }
            found.set(String(decoding: line.prefix { $0 != 0x0A }, as: UTF8.self))
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return found.value
    }

    /// Waits at most `seconds` for the program to end: its exit status, or nil when it was stopped.
    func wait(seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        guard !process.isRunning else {
            stop()
            return nil
        }
        return process.terminationStatus
    }

    /// Ends the program (SIGKILL) and waits for it.
    func stop() {
        if process.isRunning { Platform.forceKill(process.processIdentifier) }
        process.waitUntilExit()
    }
}

/// The first line a reading thread found.
private final class FirstLine: Sendable {
    private let line = Locked<String?>(nil)
    func set(_ value: String) { line.withLock { $0 = value } }
    var value: String? { line.withLock { $0 } }
}
