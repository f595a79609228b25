import AppFlipEvidence
import AppFlipModel
import AppFlipReporting

/// The recorders that write a run's files, as `run` and `merge` both pick them, in the order the run's record goes
/// to them: the four reports (kept in memory too when a bundle carries them), the evidence bundle, the job summary
/// (which points at the reports).
struct FileRecorders {
    var reports: String
    var profiles: [String]
    var reproducible: Bool
    var fileAttributes = false
    /// The bundle to write (`--bundle`): where, and what it carries besides the reports.
    var bundle: Bundle?
    /// The job summary to append to (`--summary`).
    var summary: String?

    struct Bundle {
        var path: String
        var suite: CaseSuite
        var catalog: Catalog
        var attestations: AttestationFile?
        var configuration: [UInt8]?
        var baseline: Baseline?
        var signingKey: [UInt8]?
    }

    var recorders: [any RunRecorder] {
        let written = ReportsRecorder(
            directory: reports, profiles: profiles, reproducible: reproducible, fileAttributes: fileAttributes, keepsBytes: bundle != nil)
        var recorders: [any RunRecorder] = [written]
        if let bundle {
            recorders.append(
                BundleRecorder(
                    path: bundle.path, reports: written, suite: bundle.suite, catalog: bundle.catalog, attestations: bundle.attestations,
                    configuration: bundle.configuration, baseline: bundle.baseline, signingKey: bundle.signingKey, reproducible: reproducible))
        }
        if let summary {
            recorders.append(SummaryRecorder(path: summary, reportsDirectory: reports, profiles: profiles, reproducible: reproducible))
        }
        return recorders
    }
}
