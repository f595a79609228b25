import Foundation

/// Runs a program to its end and collects what it printed (standard output and error together), for tests that
/// drive the built command line.
package enum ProgramRun {
    package static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           in directory: String? = nil) throws -> (status: Int32, output: String) {
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
