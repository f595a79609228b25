import AppFlipBase
import AppFlipModel
import AppFlipRedaction
import AppFlipReporting
import AppFlipRunner
import AppFlipSystem
import Foundation

/// One run from its first case to its record: the cases run against the targets, each result goes to the recording
/// as it is final, and at the end the run's record is put together (provenance with the adapters' digests before and
/// after, the selection, the programs' case lists, attestations and baseline, every configured secret hidden) and
/// handed to the recorders. Whoever asked for the run (the command line's `run`, a reviewer's re-run) describes it
/// and picks the recorders; this is the same for all of them.
package struct RunSession {
    package var run: RunDescription
    package var suite: CaseSuite
    package var catalog: Catalog
    /// The certification programs the run is for (none: not a certification).
    package var programs: [CertificationProgram]
    package var baseline: Baseline?
    package var attestations: AttestationFile?
    /// Every configured secret, hidden in whatever the run records.
    package let redactor: Redactor
    private let started: RunProvenance.Started

    package init(
        _ run: RunDescription, suite: CaseSuite, catalog: Catalog, programs: [CertificationProgram], baseline: Baseline?,
        attestations: AttestationFile?
    ) {
        self.run = run
        self.suite = suite
        self.catalog = catalog
        self.programs = programs
        self.baseline = baseline
        self.attestations = attestations
        redactor = Redactor(secrets: run.targets.secrets)
        started = RunProvenance.Started(at: UTCTimestamp.seconds(Date()), clock: Date())
    }

    /// The run's day, `2026-12-05`: a baseline entry expires, and an attestation is dated, against it.
    package var today: String { String(started.at.prefix(10)) }

    /// The attestations as the run records them (a bundle carries the file): written by a person, so redacted like the
    /// run's other texts.
    package var recordedAttestations: AttestationFile? {
        guard var file = attestations else { return nil }
        file.bytes = Array(redactor.redact(String(decoding: file.bytes, as: UTF8.self)).utf8)
        return file
    }

    /// Runs `cases` into `recording` and ends it with the run's record; `interrupted` says whether a signal asked
    /// the run to stop (polled before each case, as is the time limit). Says on `console` what the record alone
    /// would not show at once: a time limit reached, an adapter that changed during the run.
    package func run(
        _ cases: [ConformanceCase], recording: RunRecording, console: Console, interrupted: @escaping @Sendable () -> Bool
    ) -> RecordingOutcome {
        FreeMemory.release()
        let targets = run.targets
        var runner = Runner(configuration: run.configuration, timeout: run.timeout, jobs: run.jobs)
        runner.includeSlow = run.includeSlow
        recording.record(
            .started(
                RunPlan(
                    cases: cases.count, profiles: run.profiles.map(\.rawValue), target: redactor.redact(targets.description),
                    jobs: run.jobs)))
        // What is tested is hashed before the first case as well as after the last: an adapter that changes in
        // between (one that runs a good app, then copies a broken one over itself) tested no single program.
        let adaptersBefore = AdapterDigests.files(of: targets, pinned: run.pinnedAdapterFiles, ownDigest: nil)
        // No case starts after the deadline; those not reached are left out, as on an interruption.
        let deadline = run.timeLimit.map { Date().addingTimeInterval($0) }
        let results = runner.run(
            cases, targets: targets, shouldStop: { interrupted() || deadline.map { Date() >= $0 } == true },
            progress: { recording.record(.caseFinished($0)) })
        recording.record(.casesEnded)
        // Which build judged the target: the executable is hashed once the cases have run, on a thread of its own
        // while the run's record is put together; hashed while they ran, it took a core from the first cases.
        _ = RunIdentity.executableDigest
        FreeMemory.release()
        if let limit = run.timeLimit, results.count < cases.count, !interrupted() {
            console.err("time limit: \(Int(limit)) s reached after \(results.count) of \(cases.count) cases; the rest were not started")
        }
        // No process a handler started outlives the run: groups, leaders, and whatever carries this run's marks.
        targets.endProcesses()
        return recording.end(record(results, of: cases, adaptersBefore: adaptersBefore, incomplete: interrupted(), console: console))
    }

    /// The run's record: its results with the provenance, the selection, the programs' case lists, the attestations
    /// and the baseline applied.
    private func record(
        _ results: [CaseResult], of cases: [ConformanceCase], adaptersBefore: [Provenance.AdapterFile], incomplete: Bool,
        console: Console
    ) -> RunResult {
        var provenance = RunProvenance.make(run, suite: suite, catalog: catalog, cases: cases, programs: programs, started: started)
        provenance.adapterFiles = provenance.adapterFiles.map { file in
            var file = file
            if let before = adaptersBefore.first(where: { $0.role == file.role && $0.path == file.path })?.sha256, before != file.sha256 {
                file.sha256Before = before
            }
            return file
        }
        for file in provenance.adapterFiles where file.changed {
            console.err(
                "ADAPTER CHANGED: \(file.role) \(file.path) hashed sha256 \(file.sha256Before ?? "") before the first case and "
                    + "\(file.sha256 ?? "(unreadable)") after the last: no single program was tested, and the run is no certification")
        }
        // The configured secrets are hidden in the provenance like everywhere else (a handler URL's password, a
        // secret a partner put on the adapter's command line).
        var record = RunResult(
            results: results, catalog: catalog, provenance: redactor.redact(provenance), incomplete: incomplete || results.count < cases.count)
        record.selected = Dictionary(grouping: cases, by: \.profile.rawValue).mapValues(\.count)
        // Each program is held against its whole case list, not against what this run selected.
        for program in programs { record.programCases[program.key] = program.caseIDs(in: suite.cases) }
        if let file = attestations { record.attestations = file.attestations.map { $0.redacted(with: redactor) } }
        if let baseline { record.apply(baseline, today: today) }
        return record
    }
}
