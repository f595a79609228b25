import Foundation

/// `Tests/Fixtures/plain_python_server.py`: an authorization server on Python's http.server, written apart from the
/// suite, that leaves a GET's body unread (or, asked to, closes the connection instead).
package final class PlainPythonServer: @unchecked Sendable {
    package static let secret = "python-secret-value"
    package let base: String
    private let process: Process

    package init(closesAfterGETBody: Bool = false) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python3 ?? "/usr/bin/python3")
        process.arguments =
            [
                PackageRoot.url.appendingPathComponent("Tests/Fixtures/plain_python_server.py").path, SuiteRun.configuration.clientID,
                Self.secret,
            ] + (closesAfterGETBody ? ["close"] : [])
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line: [UInt8] = []
        while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != 0x0A { line.append(byte) }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("listening on ") else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile)
        }
        base = String(text.dropFirst("listening on ".count))
    }

    /// Ends the server with SIGKILL: a test process may block SIGTERM in the threads that spawn, and a blocked
    /// signal stays blocked in the child, so a terminate might never arrive; SIGKILL cannot be blocked.
    package func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The first `python3` on PATH, or nil.
    package static var python3: String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let candidate = "\(directory)/python3"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
