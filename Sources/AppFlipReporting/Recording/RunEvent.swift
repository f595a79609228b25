import AppFlipModel

/// What a run tells its recorders (`RunRecorder`), in this order: it started, with its plan; each case's verdict once
/// nothing later can change it, in the order the cases finished; the cases ended; the run ended, with the whole record
/// (provenance, adapter digests, attestations, baseline); and what writing its files came to. A command that replays
/// results already recorded (`merge`, `verify`'s re-rendering, `validate-url`) sends `ended` and `recorded` only.
package enum RunEvent: Sendable {
    case started(RunPlan)
    case caseFinished(CaseResult)
    /// Every case has run (or the run was stopped): a progress display closes.
    case casesEnded
    case ended(RunResult)
    /// What the recorders that write files made of `ended`.
    case recorded(RecordingOutcome)
}

/// What a run is about to do, as its console announces it.
package struct RunPlan: Sendable {
    package var cases: Int
    package var profiles: [String]
    /// The target under test, redacted.
    package var target: String
    package var jobs: Int

    package init(cases: Int, profiles: [String], target: String, jobs: Int) {
        self.cases = cases
        self.profiles = profiles
        self.target = target
        self.jobs = jobs
    }
}

/// What writing a run's files came to: nil `problem` when everything was written.
package struct RecordingOutcome: Sendable {
    package var run: RunResult
    /// The reports directory, when the run writes one.
    package var reports: String?
    /// Why the files were not all written (the old reports, if any, are then untouched).
    package var problem: String?
    package var milliseconds: Double

    package init(run: RunResult, reports: String?, problem: String?, milliseconds: Double) {
        self.run = run
        self.reports = reports
        self.problem = problem
        self.milliseconds = milliseconds
    }

    /// The exit status: the run's verdict, or that the reports were not written.
    package var exitStatus: ExitStatus { problem == nil ? run.exitStatus : .reportsNotWritten }
}
