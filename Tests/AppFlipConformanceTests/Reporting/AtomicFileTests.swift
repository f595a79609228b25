import AppFlipReporting
import Foundation
import Testing

@Suite("Atomic report files")
struct AtomicFileTests {
    @Test("A report replaces the old one whole and leaves no temporary file behind")
    func atomicReplace() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/junit.xml"
        try AtomicFile.write("old", to: path)
        let large = String(repeating: "<testcase/>\n", count: 200_000)
        try AtomicFile.write(large, to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == large)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["junit.xml"])
    }

    @Test("A report that cannot be written is an error, and the old report is left untouched")
    func failureKeepsOld() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/report.md"
        try AtomicFile.write("old report", to: path)
        // A directory where the temporary file would go makes the write fail before the rename.
        try FileManager.default.createDirectory(atPath: directory + "/.report.md.\(ProcessInfo.processInfo.processIdentifier).tmp",
                                                withIntermediateDirectories: true)
        #expect(throws: (any Error).self) { try AtomicFile.write("new report", to: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old report")
    }
}
