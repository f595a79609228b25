import AppFlipModel
import AppFlipRedaction
import AppFlipReporting

/// Writes a run's reports (junit.xml, report.md, results.json) as one unit, its evidence bundle and its summary.
enum RunReportWriter {
    /// Nil when everything was written, else why not (the old reports, if any, are then untouched).
    static func write(
        _ run: RunResult, options: RunOptions, suite: CaseSuite, catalog: Catalog, attestations: AttestationFile?,
        baseline: Baseline?
    ) -> String? {
        do {
            let reports = ReportSet(
                run: run, profiles: options.profiles.map(\.rawValue), reproducible: options.reproducible,
                fileAttributes: options.fileAttributes)
            if let bundle = options.bundle {
                // The bundle carries the very bytes written, so they are rendered once, in memory.
                let files = reports.render()
                try ReportFiles.save(files, into: options.reports)
                try BundleWriter.write(
                    bundle, reports: files, suite: suite, catalog: catalog, attestations: attestations,
                    configuration: configuration(options), baseline: baseline, signingKey: options.signingKey, run: run,
                    reproducible: options.reproducible)
            } else {
                try ReportFiles.save(reports.files, into: options.reports)
            }
            if let summary = options.summary {
                try ReportFiles.append(
                    MarkdownReport(run: run, profiles: options.profiles.map(\.rawValue), reproducible: options.reproducible)
                        .renderSummary(reportsDirectory: options.reports), to: summary)
            }
            return nil
        } catch {
            return error.message
        }
    }

    /// The configuration file as the run read it, every secret of the run hidden (values from the environment, header
    /// values, the client secret), or nil when the run had none.
    private static func configuration(_ options: RunOptions) -> [UInt8]? {
        guard let text = options.assembly.configurationText else { return nil }
        return Array(Redactor(secrets: options.assembly.targets.secrets).redact(Redaction.scrubText(text)).utf8)
    }
}
