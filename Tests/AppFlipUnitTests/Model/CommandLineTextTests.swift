import AppFlipModel
import Foundation
import Testing

/// The commands the reports print ("Reproduce the run", one case's command) start with how the tool was really
/// started, so they run as printed.
@Suite("Command lines")
struct CommandLineTextTests {
    @Test("A package's build product is named by `swift run` (with -c release, and --package-path from elsewhere); a path otherwise")
    func invokedProgram() throws {
        let release = "/pkg/.build/x86_64-unknown-linux-gnu/release/appflip-conformance"
        #expect(
            CommandLineText.invokedProgram(argument0: release, currentDirectory: "/pkg", path: "/usr/bin")
                == "swift run -c release appflip-conformance")
        #expect(
            CommandLineText.invokedProgram(argument0: ".build/debug/appflip-conformance", currentDirectory: "/pkg", path: "/usr/bin")
                == "swift run appflip-conformance")
        #expect(
            CommandLineText.invokedProgram(argument0: release, currentDirectory: "/elsewhere", path: "/usr/bin")
                == "swift run --package-path /pkg -c release appflip-conformance")
        #expect(
            CommandLineText.invokedProgram(argument0: "/opt/my tools/appflip-conformance", currentDirectory: "/", path: "/usr/bin")
                == "'/opt/my tools/appflip-conformance'")
        // Found on PATH as this very file: the bare name.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("program-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = FileManager.default.createFile(atPath: directory + "/appflip-conformance", contents: Data(), attributes: [.posixPermissions: 0o755])
        #expect(CommandLineText.invokedProgram(argument0: "appflip-conformance", currentDirectory: "/", path: directory) == "appflip-conformance")
        #expect(
            CommandLineText.invokedProgram(argument0: directory + "/appflip-conformance", currentDirectory: "/", path: "/usr/bin:" + directory)
                == "appflip-conformance")
    }

    @Test("A recorded command gives back its program, and one case's command keeps it")
    func programOfCommand() {
        let command = CommandLineText.quoted(["--target", "reference"], subcommand: "run", program: "swift run -c release appflip-conformance")
        #expect(command == "swift run -c release appflip-conformance run --target reference")
        #expect(CommandLineText.program(of: command) == "swift run -c release appflip-conformance")
        #expect(
            CommandLineText.program(of: "swift run --package-path /pkg appflip-conformance run --filter 'a run b'")
                == "swift run --package-path /pkg appflip-conformance")
        #expect(CommandLineText.program(of: "/opt/appflip-conformance run") == "/opt/appflip-conformance")
        var provenance = Provenance(
            suiteVersion: "1", caseDigest: "d", caseFileCount: 1, seed: 1, target: "t", mode: "m", jobs: 1, filter: nil,
            startedAt: "s", duration: 0, command: command)
        provenance.runArguments = ["--target", "reference", "--seed", "1"]
        #expect(provenance.command(onlyCase: "a/b")?.hasPrefix("swift run -c release appflip-conformance run --target reference") == true)
    }
}
