import AppFlipModel
import Foundation

/// A run's recorders, wired in order: every event goes to each. At the end (`end(_:)`) the run's record goes to each
/// in turn and the first that cannot write stops the rest (the reports before a bundle that carries them, both
/// before a summary that points at them); then every recorder hears what came of it (`recorded`), whose exit
/// status is the run's, or that the reports were not written.
package struct RunRecording: Sendable {
    package var recorders: [any RunRecorder]
    /// The reports directory the recorders write, when one does (for the console's last line).
    package var reports: String?

    package init(_ recorders: [any RunRecorder], reports: String? = nil) {
        self.recorders = recorders
        self.reports = reports
    }

    /// An event of the run under way: recorders of a run under way do not fail (the console, a progress display).
    package func record(_ event: RunEvent) {
        for recorder in recorders { try? recorder.record(event) }
    }

    /// The run's record to every recorder, then what came of it (its exit status, the problem writing).
    @discardableResult
    package func end(_ run: RunResult) -> RecordingOutcome {
        let started = Date()
        var problem: String?
        for recorder in recorders {
            do throws(RecordingFailure) {
                try recorder.record(.ended(run))
            } catch {
                problem = error.message
                break
            }
        }
        let outcome = RecordingOutcome(
            run: run, reports: reports, problem: problem, milliseconds: Date().timeIntervalSince(started) * 1000)
        record(.recorded(outcome))
        return outcome
    }
}
