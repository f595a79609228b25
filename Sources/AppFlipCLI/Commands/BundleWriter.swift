import AppFlipEvidence
import AppFlipModel
import AppFlipReporting

/// Writes an evidence bundle, as `run --bundle` and `merge --bundle` both do: the reports just written (the very
/// bytes), the case files and catalog the run read, the configuration (redacted), the baseline and attestations it
/// was given, the manifest, and the signature when a key is given.
enum BundleWriter {
    static func write(
        _ path: String, reports: [(name: String, text: String)], suite: CaseSuite, catalog: Catalog,
        attestations: AttestationFile?, configuration: [UInt8]? = nil, baseline: Baseline?, signingKey: [UInt8]?,
        run: RunResult, reproducible: Bool
    ) throws(ReportFiles.Failure) {
        guard let catalogFile = catalog.file else { throw ReportFiles.Failure(message: "the catalog's bytes are not at hand for the bundle") }
        let caseFiles = suite.sources.map { (path: suite.digestPath(of: $0.path), bytes: $0.bytes) }
        let archive: [UInt8]
        do {
            archive = try EvidenceBundle.make(
                reports: reports, caseFiles: caseFiles, catalog: catalogFile.bytes, attestations: attestations,
                configuration: configuration, baseline: baseline?.bytes, signingKey: signingKey, run: run,
                reproducible: reproducible)
        } catch {
            throw ReportFiles.Failure(message: error.message)
        }
        try ReportFiles.save(archive, to: path)
    }
}
