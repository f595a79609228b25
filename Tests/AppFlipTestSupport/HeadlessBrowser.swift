import Foundation

/// Debian's Chromium in headless mode, for tests of report.html in a real browser: the page's DOM after its script
/// ran, what the browser wrote to its console (script errors, policy violations), and screenshots. `.ci/run`
/// installs it (`apt-get install chromium`); a test that needs it and cannot find it fails saying so.
package enum HeadlessBrowser {
    package struct Missing: Error, CustomStringConvertible {
        package var description: String { "no chromium on PATH: install Debian's chromium (apt-get install -y chromium), as .ci/run does" }
    }

    /// The browser's executable, found on PATH.
    package static func executable() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            for name in ["chromium", "chromium-browser", "google-chrome"] {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        throw Missing()
    }

    /// What a page left: its DOM after scripts ran, serialized, and every line the browser logged from its console.
    package struct Page {
        package var dom: String
        package var console: [String]
    }

    /// Opens `file` (with `fragment`, e.g. `verdict=fail`) and returns the DOM once its scripts ran.
    package static func dump(_ file: String, fragment: String? = nil) throws -> Page {
        let url = URL(fileURLWithPath: file).absoluteString + (fragment.map { "#" + $0 } ?? "")
        let (output, log) = try run(["--virtual-time-budget=5000", "--dump-dom", url])
        // Chromium logs the page's console as `INFO:CONSOLE…` lines on standard error (policy violations included).
        let console = log.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
        return Page(dom: output, console: console)
    }

    /// A screenshot of `file` at `width` × `height` pixels, written to `png`.
    package static func screenshot(_ file: String, to png: String, width: Int = 1280, height: Int = 1400) throws {
        _ = try run(["--hide-scrollbars", "--window-size=\(width),\(height)", "--screenshot=\(png)", URL(fileURLWithPath: file).absoluteString])
    }

    /// Runs the browser headless with a profile of its own (tests run at once), its output and log to files.
    private static func run(_ arguments: [String]) throws -> (output: String, log: String) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable())
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions", "--enable-logging=stderr",
                "--v=0", "--user-data-dir=" + scratch.appendingPathComponent("profile").path,
            ] + arguments
        let outputURL = scratch.appendingPathComponent("out")
        let logURL = scratch.appendingPathComponent("log")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: logURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // A browser that hangs is ended: the test then fails on what it did not write.
        if !Waiting.until(ceiling: 120, { !process.isRunning }) { process.terminate() }
        process.waitUntilExit()
        return (
            String(decoding: (try? Data(contentsOf: outputURL)) ?? Data(), as: UTF8.self),
            String(decoding: (try? Data(contentsOf: logURL)) ?? Data(), as: UTF8.self)
        )
    }
}
