import Foundation

/// Executables a test makes (scripts, copies of a built program), never opened for writing by the test process.
///
/// Tests run in parallel threads of one process, and a program another thread starts can inherit a descriptor this
/// thread opened a moment before (Foundation's `Process` closes the descriptors it listed, not one opened while it
/// spawned). While any process holds a file open for writing, executing it fails with ETXTBSY ("Text file busy",
/// status 126 from a shell; seen in `swift test` on a loaded machine). So the bytes of an executable are written by
/// `install` or `cp`, in a process of their own, and only that process ever holds them open for writing.
package enum ExecutableFile {
    /// Writes `text` to `path`, mode 0755.
    package static func write(_ text: String, to path: String) throws {
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("executable-\(UUID().uuidString)").path
        try text.write(toFile: source, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: source) }
        try run("/usr/bin/install", ["-m", "755", source, path])
    }

    /// Copies `source` (a file or a directory, recursively, modes kept) to `destination`, as `cp -R -p` does.
    package static func copy(_ source: String, to destination: String) throws {
        try run("/bin/cp", ["-R", "-p", source, destination])
    }

    private static func run(_ program: String, _ arguments: [String]) throws {
        let (status, output) = try ProgramRun.run(program, arguments)
        guard status == 0 else { throw Failure(description: "\(program) \(arguments.joined(separator: " ")) exited \(status): \(output)") }
    }

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }
}
