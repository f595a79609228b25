import AppFlipTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every file the suite reads has a bound, checked before it is read: a 1 GB sparse file given as any input is refused
/// with the bound named, exit 2, and the process never holds more than 300 MB doing so (its own peak resident size).
@Suite("Input bounds", .serialized)
struct InputBoundsTests {
    struct Input: Sendable, CustomTestStringConvertible {
        var name: String
        /// The arguments, `BIG` standing for the sparse file.
        var arguments: [String]
        /// What the error names: the bound.
        var limit: Int
        var testDescription: String { name }
    }

    static let inputs: [Input] = [
        Input(name: "--config", arguments: ["run", "--config", "BIG"], limit: 1 << 20),
        Input(name: "--baseline", arguments: ["run", "--target", "reference", "--baseline", "BIG"], limit: 1 << 20),
        Input(name: "--attest", arguments: ["run", "--target", "reference", "--attest", "BIG"], limit: 1 << 20),
        Input(name: "--cases", arguments: ["run", "--target", "reference", "--cases", "BIG"], limit: 1 << 20),
        Input(name: "--catalog", arguments: ["run", "--target", "reference", "--catalog", "BIG"], limit: 1 << 20),
        Input(
            name: "--ca-file", arguments: ["run", "--ca-file", "BIG", "--link", "https://app.example/flip", "--client-id", "g", "--", "/bin/true"],
            limit: 1 << 20),
        Input(name: "an attachment", arguments: ["run", "--target", "reference", "--profile", "app-link", "--attest", "ATTEST"], limit: 16 << 20),
        Input(name: "diff", arguments: ["diff", "BIG", "BIG"], limit: 128 << 20),
        Input(name: "merge", arguments: ["merge", "BIG", "--reports", "OUT"], limit: 128 << 20),
        Input(name: "--rerun-failed", arguments: ["run", "--target", "reference", "--rerun-failed", "BIG"], limit: 128 << 20),
        Input(name: "verify", arguments: ["verify", "BIG"], limit: 256 << 20),
    ]

    @Test("A 1 GB sparse file is refused before it is read: exit 2, the bound named, under 300 MB resident", arguments: inputs)
    func sparse(_ input: Input) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bounds-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let big = directory + "/big.bin"
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: big))
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        try Data(
            """
            attestations:
              - requirement: AF-LINK-021
                verdict: pass
                by: Jane Reviewer
                date: 2026-11-25
                note: The consent screen names Google Home.
                attachments: ["big.bin"]

            """.utf8
        ).write(to: URL(fileURLWithPath: directory + "/attest.txt"))
        let arguments = input.arguments.map { $0 == "BIG" ? big : $0 == "ATTEST" ? directory + "/attest.txt" : $0 == "OUT" ? directory + "/out" : $0 }
        let run = try ProgramRun.peakResident(BuiltProducts.path("appflip-conformance"), arguments)
        #expect(run.status == 2, "\(input.name): \(run.output)")
        #expect(run.output.contains("1073741824 bytes") && run.output.contains("\(input.limit)"), "\(input.name): \(run.output)")
        #expect(run.peakBytes < 300 << 20, "\(input.name): \(run.peakBytes) bytes resident")
    }

    /// Every reader, given a FIFO no one writes to (or an append target that is one): named, refused at once.
    static let fifoInputs: [Input] =
        inputs.filter { $0.name != "an attachment" } + [
            Input(name: "lint", arguments: ["lint", "BIG"], limit: 0),
            Input(name: "lint --catalog", arguments: ["lint", "--catalog", "BIG"], limit: 0),
            Input(name: "--summary", arguments: ["run", "--target", "reference", "--profile", "site-association", "--summary", "BIG"], limit: 0),
            Input(name: "a FIFO among the case files", arguments: ["run", "--target", "reference", "--cases", "CASES"], limit: 0),
        ]

    @Test(
        "A FIFO with no writer is refused at once by every reader, named as one, never opened (opening it would wait for ever)",
        arguments: fifoInputs)
    func fifo(_ input: Input) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/cases", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(mkfifo(directory + "/cases/x.case", 0o600) == 0)
        let arguments = input.arguments.map { $0 == "BIG" ? fifo : $0 == "CASES" ? directory + "/cases" : $0 == "OUT" ? directory + "/out" : $0 }
        // A hang is a failure here, not a stuck test: the command is given 20 s.
        let started = Date()
        let run = try ProgramRun.run("/usr/bin/timeout", ["20", BuiltProducts.path("appflip-conformance")] + arguments)
        #expect(run.status == 2, "\(input.name): exit \(run.status): \(run.output)")
        #expect(run.output.contains("is a FIFO (a named pipe), not a regular file"), "\(input.name): \(run.output)")
        #expect(Date().timeIntervalSince(started) < 15, "\(input.name) took \(Date().timeIntervalSince(started)) s")
    }

    @Test("A directory given as a file says so, not its size")
    func directory() throws {
        let run = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            ["run", "--ca-file", NSTemporaryDirectory(), "--link", "https://app.example/flip", "--client-id", "g", "--", "/bin/true"])
        #expect(run.status == 2 && run.output.contains("is a directory, not a file") && !run.output.contains("9223372036854775807"), "\(run.output)")
    }
}
