import AppFlipModel

/// A CI job summary (`--summary`, `$GITHUB_STEP_SUMMARY`): report.md's short form appended to a file other steps
/// append to as well, when the run ends.
package struct SummaryRecorder: RunRecorder {
    package var path: String
    /// Where the reports went, for the summary's pointer to them.
    package var reportsDirectory: String
    package var profiles: [String]
    package var reproducible: Bool

    package init(path: String, reportsDirectory: String, profiles: [String], reproducible: Bool) {
        self.path = path
        self.reportsDirectory = reportsDirectory
        self.profiles = profiles
        self.reproducible = reproducible
    }

    package func record(_ event: RunEvent) throws(RecordingFailure) {
        guard case .ended(let run) = event else { return }
        let text = MarkdownReport(run: run, profiles: profiles, reproducible: reproducible).renderSummary(reportsDirectory: reportsDirectory)
        do throws(ReportFiles.Failure) {
            try ReportFiles.append(text, to: path)
        } catch {
            throw RecordingFailure(error)
        }
    }
}
