import AppFlipModel
import AppFlipRedaction
import AppFlipReporting

/// The recorders a run's options pick, in the order the run's record goes to them: the console; the four reports
/// (kept in memory too when a bundle carries them); the bundle; the job summary, which points at the reports.
enum RunRecorders {
    static func recording(
        _ options: RunOptions, console: Console, total: Int, suite: CaseSuite, catalog: Catalog, attestations: AttestationFile?,
        baseline: Baseline?, today: String
    ) -> RunRecording {
        let files = FileRecorders(
            reports: options.reports, profiles: options.profiles.map(\.rawValue), reproducible: options.reproducible,
            fileAttributes: options.fileAttributes,
            bundle: options.bundle.map { path in
                FileRecorders.Bundle(
                    path: path, suite: suite, catalog: catalog, attestations: attestations, configuration: configuration(options),
                    baseline: baseline, signingKey: options.signingKey)
            }, summary: options.summary)
        let console = ConsoleRecorder(
            console: console, verbosity: options.verbosity, color: options.color, total: total, baseline: baseline, today: today)
        return RunRecording([console] + files.recorders, reports: options.reports)
    }

    /// The configuration file as the run read it, every secret of the run hidden (values from the environment, header
    /// values, the client secret), or nil when the run had none.
    private static func configuration(_ options: RunOptions) -> [UInt8]? {
        guard let text = options.assembly.configurationText else { return nil }
        return Array(Redactor(secrets: options.assembly.targets.secrets).redact(Redaction.scrubText(text)).utf8)
    }
}
