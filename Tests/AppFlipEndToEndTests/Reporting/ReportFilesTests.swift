import AppFlipReporting
import AppFlipTestSupport
import Foundation
import Testing

/// The reports are written as one unit: all replaced or none, never through a planted link, never mixed.
@Suite("Report files", .serialized)
struct ReportFilesTests {
    private func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reports-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func visible(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0 != ReportFiles.lockName }.sorted()
    }

    @Test("Both reports replace the old pair whole; no temporary file is left")
    func replacesPair() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ReportFiles.save([("junit.xml", "old junit"), ("report.md", "old report")], into: dir)
        let large = String(repeating: "<testcase/>\n", count: 200_000)
        try ReportFiles.save([("junit.xml", large), ("report.md", "new report")], into: dir)
        #expect(try String(contentsOfFile: dir + "/junit.xml", encoding: .utf8) == large)
        #expect(try String(contentsOfFile: dir + "/report.md", encoding: .utf8) == "new report")
        #expect(try visible(dir) == ["junit.xml", "report.md"])
    }

    @Test("The temporaries a killed run left are removed by the next run, once their owner is proved gone; nothing else is")
    func staleTemporaries() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let alive = Process()
        alive.executableURL = URL(fileURLWithPath: "/bin/sleep")
        alive.arguments = ["30"]
        try alive.run()
        defer { alive.terminate() }
        let dead = ".junit.xml.\(ended.processIdentifier)-killed.tmp"
        let living = ".report.md.\(alive.processIdentifier)-writing.tmp"
        let untold = ".junit.xml.oldformat.tmp"
        let other = ".baseline.txt.\(ended.processIdentifier)-x.tmp"
        for name in [dead, living, untold, other] {
            #expect(FileManager.default.createFile(atPath: dir + "/" + name, contents: Data(repeating: 0x61, count: 1 << 16)))
        }
        try ReportFiles.save([("junit.xml", "junit"), ("report.md", "report")], into: dir)
        #expect(try visible(dir) == [untold, other, living, "junit.xml", "report.md"].sorted())
    }

    @Test("A symlink planted at a report's name is replaced, never written through")
    func plantedLink() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let victim = dir + "-victim"
        try "precious".write(toFile: victim, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: victim) }
        try FileManager.default.createSymbolicLink(atPath: dir + "/report.md", withDestinationPath: victim)
        try ReportFiles.save([("junit.xml", "j"), ("report.md", "r")], into: dir)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        let attributes = try FileManager.default.attributesOfItem(atPath: dir + "/report.md")
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    }

    @Test("When a report cannot be moved into place, the temporary files are removed and the error says so")
    func allOrNothing() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ReportFiles.save([("junit.xml", "old junit"), ("report.md", "old report")], into: dir)
        // report.md as a non-empty directory cannot be renamed over: the move fails after both temps were written.
        try FileManager.default.removeItem(atPath: dir + "/report.md")
        try FileManager.default.createDirectory(atPath: dir + "/report.md/keep", withIntermediateDirectories: true)
        do {
            try ReportFiles.save([("junit.xml", "new junit"), ("report.md", "new report")], into: dir)
            Issue.record("saved over a directory")
        } catch {
            #expect(error.message.contains("report.md") && error.message.contains("junit.xml already replaced"), "\(error.message)")
        }
        let left = try visible(dir)
        #expect(left.allSatisfy { !$0.hasSuffix(".tmp") }, "\(left)")
    }

    @Test("Two writers sharing a directory never leave a mixed pair")
    func concurrentWriters() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let group = DispatchGroup()
        for writer in ["A", "B"] {
            group.enter()
            Thread {
                for round in 0..<60 {
                    try? ReportFiles.save([("junit.xml", "\(writer)\(round)"), ("report.md", "\(writer)\(round)")], into: dir)
                }
                group.leave()
            }.start()
        }
        var mixed = 0
        while group.wait(timeout: .now() + 0.001) == .timedOut {
            // A reader that takes the same lock sees a consistent pair.
            let lock = open(dir + "/" + ReportFiles.lockName, O_RDONLY)
            guard lock >= 0 else { continue }
            flock(lock, LOCK_SH)
            let junit = try? String(contentsOfFile: dir + "/junit.xml", encoding: .utf8)
            let report = try? String(contentsOfFile: dir + "/report.md", encoding: .utf8)
            flock(lock, LOCK_UN)
            close(lock)
            if let junit, let report, junit != report { mixed += 1 }
        }
        #expect(mixed == 0)
        let junit = try String(contentsOfFile: dir + "/junit.xml", encoding: .utf8)
        #expect(try junit == String(contentsOfFile: dir + "/report.md", encoding: .utf8))
    }

    @Test("A --reports path that cannot take files is found before the run")
    func preflight() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "x".write(toFile: dir + "/file", atomically: true, encoding: .utf8)
        #expect(ReportFiles.problem(writing: dir + "/file") != nil)
        #expect(ReportFiles.problem(writing: dir + "/file/sub") != nil)
        #expect(ReportFiles.problem(writing: dir + "/new/deeper") == nil)
        #expect(try visible(dir + "/new/deeper").isEmpty)
    }

    @Test(
        "A full disk: exit 6, the verdict on the console, the old pair untouched, no temporary file",
        .enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")))
    func fullDisk() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A private mount namespace with a 64 KiB tmpfs: the old pair fits, a full run's report.md does not.
        let script = """
            mount -t tmpfs -o size=64k tmpfs "$1" && printf 'old junit' > "$1/junit.xml" && printf 'old report' > "$1/report.md" && \
            "$2" run --target reference --cases "$3" --catalog "$4" --reports "$1"; status=$?; \
            echo "exit=$status"; ls -A "$1"; cat "$1/junit.xml"; echo; cat "$1/report.md"; echo
            """
        let (_, text) = try ProgramRun.run(
            "/usr/bin/unshare",
            [
                "-m", "/bin/sh", "-c", script, "sh", dir, BuiltProducts.path("appflip-conformance"),
                PackageRoot.cases, PackageRoot.catalog,
            ])
        #expect(text.contains("exit=6"), "\(text)")
        #expect(text.contains(" 0 fail, 0 error — conformant") && text.contains("(exit 6)"), "\(text)")
        #expect(text.contains("the reports were not written") && text.contains("No space left"), "\(text)")
        // What the directory holds afterwards: the lock, and the old pair whole; no temporary file.
        #expect(text.contains("exit=6\n.appflip-reports.lock\njunit.xml\nreport.md\nold junit\nold report"), "\(text)")
    }
}
