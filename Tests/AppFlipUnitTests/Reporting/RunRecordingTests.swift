import AppFlipBase
import AppFlipModel
import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipReporting

/// A run's outputs are recorders fed its events in order (`RunRecording`): each hears every event; at the end the
/// first recorder that cannot write stops the ones after it, and every recorder hears what came of it.
@Suite("Run recording")
struct RunRecordingTests {
    /// Records the events it is given, by name; fails on `ended` when told to.
    final class Tape: RunRecorder {
        let name: String
        let fails: Bool
        let log: Locked<[String]>

        init(_ name: String, fails: Bool = false, log: Locked<[String]>) {
            self.name = name
            self.fails = fails
            self.log = log
        }

        func record(_ event: RunEvent) throws(RecordingFailure) {
            let word: String
            switch event {
            case .started: word = "started"
            case .caseFinished(let result): word = "case \(result.conformanceCase.id)"
            case .casesEnded: word = "casesEnded"
            case .ended: word = "ended"
            case .recorded(let outcome): word = "recorded \(outcome.problem ?? "ok") exit \(outcome.exitStatus.rawValue)"
            }
            log.withLock { $0.append("\(name): \(word)") }
            if fails, case .ended = event { throw RecordingFailure(message: "\(name) cannot write") }
        }
    }

    @Test("Every recorder hears every event in order, and what writing came to")
    func order() {
        let log = Locked<[String]>([])
        let run = Fixtures.mixedRun()
        let recording = RunRecording([Tape("a", log: log), Tape("b", log: log)], reports: "out")
        recording.record(.started(RunPlan(cases: 1, profiles: ["app-link"], target: "t", jobs: 1)))
        recording.record(.caseFinished(run.results[0]))
        recording.record(.casesEnded)
        let outcome = recording.end(run)
        #expect(outcome.problem == nil)
        #expect(outcome.exitStatus == run.exitStatus)
        #expect(outcome.reports == "out")
        let id = run.results[0].conformanceCase.id
        #expect(
            log.withLock { $0 } == [
                "a: started", "b: started", "a: case \(id)", "b: case \(id)", "a: casesEnded", "b: casesEnded", "a: ended", "b: ended",
                "a: recorded ok exit \(run.exitStatus.rawValue)", "b: recorded ok exit \(run.exitStatus.rawValue)",
            ])
    }

    @Test("The first recorder that cannot write stops the later ones; the outcome is exit 6 with its reason, told to all")
    func failure() {
        let log = Locked<[String]>([])
        let outcome = RunRecording([Tape("a", log: log), Tape("b", fails: true, log: log), Tape("c", log: log)]).end(Fixtures.mixedRun())
        #expect(outcome.problem == "b cannot write")
        #expect(outcome.exitStatus == .reportsNotWritten)
        #expect(
            log.withLock { $0 } == [
                "a: ended", "b: ended", "a: recorded b cannot write exit 6", "b: recorded b cannot write exit 6",
                "c: recorded b cannot write exit 6",
            ])
    }

    @Test("The reports' recorder writes what ReportSet renders, in memory and into a directory, byte for byte")
    func reports() throws {
        let run = Fixtures.mixedRun()
        let expected = ReportSet(run: run, profiles: ["app-link"], reproducible: true).render()
        let memory = ReportsRecorder(directory: nil, profiles: ["app-link"], reproducible: true)
        #expect(memory.written == nil)
        RunRecording([memory]).end(run)
        #expect(memory.written?.map(\.name) == expected.map(\.name))
        #expect(memory.written?.map(\.text) == expected.map(\.text))

        let directory = FileManager.default.temporaryDirectory.path + "/recording-\(UInt64.random(in: 0 ... .max))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = ReportsRecorder(directory: directory, profiles: ["app-link"], reproducible: true)
        #expect(RunRecording([files], reports: directory).end(run).problem == nil)
        #expect(files.written == nil, "streamed into the files, not kept")
        for file in expected {
            #expect(try String(contentsOfFile: directory + "/" + file.name, encoding: .utf8) == file.text, "\(file.name) differs")
        }
    }

    @Test("A reports directory that cannot be written is the recording's problem, and the summary after it is not written")
    func unwritable() throws {
        let blocker = FileManager.default.temporaryDirectory.path + "/recording-file-\(UInt64.random(in: 0 ... .max))"
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        defer { try? FileManager.default.removeItem(atPath: blocker) }
        let summary = blocker + "-summary.md"
        defer { try? FileManager.default.removeItem(atPath: summary) }
        let outcome = RunRecording([
            ReportsRecorder(directory: blocker + "/reports", profiles: ["app-link"], reproducible: true),
            SummaryRecorder(path: summary, reportsDirectory: blocker + "/reports", profiles: ["app-link"], reproducible: true),
        ]).end(Fixtures.mixedRun())
        #expect(outcome.exitStatus == .reportsNotWritten)
        #expect(outcome.problem?.isEmpty == false)
        #expect(!FileManager.default.fileExists(atPath: summary))
    }
}
