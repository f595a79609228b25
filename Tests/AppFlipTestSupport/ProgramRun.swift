import Foundation

/// Runs a program to its end and collects what it printed (standard output and error together), for tests that
/// drive the built command line.
package enum ProgramRun {
    package static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        in directory: String? = nil
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ProgramRun {
    /// Runs a program to its end (its output to a temporary file) and says how much memory it held at most: its own
    /// peak resident size, read from `wait4` for that one process, whatever else the machine runs.
    package static func peakResident(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String, peakBytes: Int) {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("peak-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
        #if os(Linux)
            let peak = Int(usage.ru_maxrss) * 1024
        #else
            let peak = Int(usage.ru_maxrss)
        #endif
        let exitStatus: Int32 = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return (exitStatus, output, peak)
    }
}
