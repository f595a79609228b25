import AppFlipModel
import AppFlipReporting

/// Writes an evidence bundle when the run ends, as `run --bundle` and `merge --bundle` both do: the reports just
/// written (the very bytes, kept by the reports' recorder, which comes before this one), the case files and catalog
/// the run read, the configuration (redacted), the baseline and attestations it was given, the manifest, and the
/// signature when a key is given.
package struct BundleRecorder: RunRecorder {
    package var path: String
    /// The recorder whose written reports the bundle carries (made with `keepsBytes`).
    package var reports: ReportsRecorder
    package var suite: CaseSuite
    package var catalog: Catalog
    package var attestations: AttestationFile?
    package var configuration: [UInt8]?
    package var baseline: Baseline?
    package var signingKey: [UInt8]?
    package var reproducible: Bool

    package init(
        path: String, reports: ReportsRecorder, suite: CaseSuite, catalog: Catalog, attestations: AttestationFile?,
        configuration: [UInt8]? = nil, baseline: Baseline?, signingKey: [UInt8]?, reproducible: Bool
    ) {
        self.path = path
        self.reports = reports
        self.suite = suite
        self.catalog = catalog
        self.attestations = attestations
        self.configuration = configuration
        self.baseline = baseline
        self.signingKey = signingKey
        self.reproducible = reproducible
    }

    package func record(_ event: RunEvent) throws(RecordingFailure) {
        guard case .ended(let run) = event else { return }
        guard let written = reports.written else { throw RecordingFailure(message: "the reports the bundle carries were not written") }
        guard let catalogFile = catalog.file else { throw RecordingFailure(message: "the catalog's bytes are not at hand for the bundle") }
        let caseFiles = suite.sources.map { (path: suite.digestPath(of: $0.path), bytes: $0.bytes) }
        let archive: [UInt8]
        do {
            archive = try EvidenceBundle.make(
                reports: written, caseFiles: caseFiles, catalog: catalogFile.bytes, attestations: attestations,
                configuration: configuration, baseline: baseline?.bytes, signingKey: signingKey, run: run,
                reproducible: reproducible)
        } catch {
            throw RecordingFailure(message: error.message)
        }
        do throws(ReportFiles.Failure) {
            try ReportFiles.save(archive, to: path)
        } catch {
            throw RecordingFailure(error)
        }
    }
}
