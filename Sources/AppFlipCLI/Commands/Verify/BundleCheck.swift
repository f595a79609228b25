import AppFlipDigest
import AppFlipEvidence
import AppFlipLoading
import AppFlipModel
import AppFlipReporting
import AppFlipSuite
import Foundation

/// The static verification of an evidence bundle, as `verify` and `certify` both make it and print it: every file
/// against the manifest, the derived fields derived again, the case files and catalog held to this binary's, the
/// signature held to the trusted keys. Nothing of the bundle runs.
struct BundleCheck {
    struct Status: Error {
        var code: Int32
    }

    var verification: EvidenceBundle.Verification
    /// Whether everything held, signature included.
    var intact: Bool
    /// The bundle's bytes, for its digest.
    var bytes: [UInt8]

    /// Reads and checks the bundle at `path` (or its bytes, when the caller has read them already), printing what it
    /// found; a bundle that cannot be read is a status.
    static func check(
        _ path: String, bytes: [UInt8]? = nil, trusted: [String], cases: String?, catalog: String?, console: Console
    ) -> Result<BundleCheck, Status> {
        let data: [UInt8]
        do throws(BoundedFile.Failure) {
            if let bytes { data = bytes } else { data = try BoundedFile.read(path, limit: BoundedFile.bundleLimit) }
        } catch {
            console.err("error: \(error.reason == "cannot be read" ? "cannot read \(path)" : error.message)")
            return .failure(Status(code: ExitStatus.usage.rawValue))
        }
        let verification: EvidenceBundle.Verification
        do {
            verification = try EvidenceBundle.verify(data)
        } catch {
            console.err("error: \(path): \(error.message)")
            return .failure(Status(code: ExitStatus.nonConformant.rawValue))
        }
        var problems = verification.problems
        let manifest = verification.manifest
        // The bundled cases, loaded as a run would load them: their digest must be the one the run recorded.
        let bundled = bundledSuiteDigest(verification.entries)
        if let bundled, bundled != manifest.casesDigest {
            problems.append("the bundled case files hash to \(bundled.prefix(12))…, not the \(manifest.casesDigest.prefix(12))… the run recorded")
        } else if bundled == nil {
            problems.append("the bundled case files do not load")
        }
        let localCases = cases
        let local = SuiteLoading.load(cases: localCases, catalog: catalog, console: Console(out: { _ in }, err: { _ in }))
        let matchesSuite = local?.1.digest == manifest.casesDigest
        let suiteName = localCases.map { "the cases at \($0)" } ?? "the cases built into this binary"
        // The catalog judges as much as the cases do: a partner's own could redefine a program to judge anything.
        let bundledCatalog = verification.entries.first { $0.path == EvidenceBundle.catalogPath }.map { SHA256.hexDigest($0.bytes) }
        let localCatalog = catalog
        let matchesCatalog = bundledCatalog != nil && local.flatMap { BuiltInSuite.digest(of: $0.0) } == bundledCatalog
        let catalogName = localCatalog.map { "the catalog at \($0)" } ?? "the catalog built into this binary"
        for problem in problems { console.out("PROBLEM \(problem)") }
        console.out("bundle: \(manifest.files.count) files" + (problems.isEmpty ? ", every SHA-256 as the manifest lists" : ""))
        console.out(
            "cases: sha256 \(manifest.casesDigest) — "
                + (matchesSuite
                    ? "\(suiteName) (suite \(SuiteVersion.current))"
                    : "NOT \(suiteName) (suite \(SuiteVersion.current)): modified, or another version's"))
        let catalogLine =
            "catalog: " + (bundledCatalog.map { "sha256 \($0)" } ?? "missing") + " — "
            + (matchesCatalog ? catalogName : "NOT \(catalogName): another catalog judged this run, and it certifies nothing here")
        console.out("\(catalogLine)")
        console.out(
            "recorded: \(manifest.verdict) (exit \(manifest.exitCode)), suite \(manifest.suiteVersion), seed \(manifest.seed), "
                + "target \(manifest.target)" + (manifest.startedAt.map { ", started \($0)" } ?? ""))
        for attestation in verification.attestations {
            let files = attestation.attachments.count
            console.out(
                "attested by hand (not judged by the suite): \(attestation.requirement) \(attestation.verdict) by \(attestation.by) on "
                    + "\(attestation.date)" + (files == 0 ? "" : " (\(files) attachment\(files == 1 ? "" : "s"), SHA-256 checked)"))
        }
        if let document = verification.document {
            for line in VerifyCommand.identity(document) { console.out(line) }
        }
        console.out("re-run: \(VerifyCommand.rerunCommand(path)) (name your target as for `run`; nothing of the bundle is executed)")
        let bundledConfiguration = verification.entries.contains { $0.path == EvidenceBundle.configurationPath }
        console.out("re-run needs: \(VerifyCommand.rerunNeeds(verification.document, bundledConfiguration: bundledConfiguration))")
        let (signatureLine, signatureHolds) = VerifyCommand.signature(verification.signature, trusted: trusted)
        console.out("\(signatureLine)")
        let intact = problems.isEmpty && matchesSuite && matchesCatalog && signatureHolds
        return .success(BundleCheck(verification: verification, intact: intact, bytes: data))
    }

    /// The digest of the bundle's `cases/` files, computed by loading them as a run does.
    private static func bundledSuiteDigest(_ entries: [TarArchive.Entry]) -> String? {
        let files = entries.filter { $0.path.hasPrefix("cases/") }.map { SuiteFile(path: $0.path, bytes: $0.bytes) }
        return try? CaseLoader.load(files: files, base: "cases", catalog: nil).digest
    }
}
