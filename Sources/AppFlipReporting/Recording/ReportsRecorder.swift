import AppFlipBase
import AppFlipModel

/// The four report files (`ReportSet`: junit.xml, report.md, report.html, results.json), written as one unit into a
/// directory when the run ends (`ReportFiles.save`: all or none), each streamed into its file; or, for a caller that
/// compares or bundles them, rendered in memory (`keepsBytes`), the very bytes written kept for it (`written`).
package final class ReportsRecorder: RunRecorder {
    private let directory: String?
    private let profiles: [String]
    private let reproducible: Bool
    private let fileAttributes: Bool
    private let keepsBytes: Bool
    private let kept = Locked<[(name: String, text: String)]?>(nil)

    /// `directory` nil renders in memory only (`verify` compares a bundle's reports with them).
    package init(directory: String?, profiles: [String], reproducible: Bool, fileAttributes: Bool = false, keepsBytes: Bool = false) {
        self.directory = directory
        self.profiles = profiles
        self.reproducible = reproducible
        self.fileAttributes = fileAttributes
        self.keepsBytes = keepsBytes || directory == nil
    }

    package func record(_ event: RunEvent) throws(RecordingFailure) {
        guard case .ended(let run) = event else { return }
        let set = ReportSet(run: run, profiles: profiles, reproducible: reproducible, fileAttributes: fileAttributes)
        do throws(ReportFiles.Failure) {
            if keepsBytes {
                let files = set.render()
                if let directory { try ReportFiles.save(files, into: directory) }
                kept.withLock { $0 = files }
            } else if let directory {
                try ReportFiles.save(set.files, into: directory)
            }
        } catch {
            throw RecordingFailure(error)
        }
    }

    /// Each file's name and text as written, when kept; nil before the run ended.
    package var written: [(name: String, text: String)]? { kept.withLock { $0 } }
}
