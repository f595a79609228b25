import AppFlipBase
import AppFlipDigest
import AppFlipLoading
import AppFlipModel
import AppFlipReporting
import Foundation

/// `--bundle FILE`: one archive a certification reviewer can trust and re-run: the reports, the case files and the
/// catalog the run used, and `manifest.json` with the SHA-256 of every other file, the suite version, the seed, the
/// target and the times. `verify` checks it file by file.
package enum EvidenceBundle {
    package struct Manifest: Codable, Sendable, Hashable {
        package static let schemaName = "appflip-conformance/bundle"

        package struct File: Codable, Sendable, Hashable {
            package var path: String
            package var sha256: String
            package var bytes: Int

            package init(path: String, sha256: String, bytes: Int) {
                self.path = path
                self.sha256 = sha256
                self.bytes = bytes
            }
        }

        package var schema: String
        package var version: Int
        package var suiteVersion: String
        package var casesDigest: String
        package var seed: UInt64
        package var target: String
        package var startedAt: String?
        package var durationSeconds: Double
        package var verdict: String
        package var exitCode: Int32
        package var command: String
        /// The run's arguments (seed explicit), as a record: a re-run never executes them.
        package var arguments: [String]?
        package var files: [File]
    }

    package struct Failure: Error, Sendable {
        package var message: String
    }

    /// What `verify` found: the manifest, the problems (none when the bundle is intact), and the files.
    package struct Verification: Sendable {
        package var manifest: Manifest
        package var problems: [String]
        package var entries: [TarArchive.Entry]
        /// What results.json records as attested by hand, each attachment checked against the bundle's file.
        package var attestations: [ResultsDocument.AttestationEntry] = []
        /// The bundle's results.json, when it could be read.
        package var document: ResultsDocument?
        /// What its signature says.
        package var signature: SignatureCheck = .unsigned
    }

    static let manifestPath = "manifest.json"
    package static let catalogPath = "catalog/requirements.catalog"
    static let attestationPath = "attestations/attestations.txt"
    /// The run's target configuration file (`--config`), redacted as every report is: the scenario headers, test
    /// hooks and endpoints a reviewer weighs the verdict against.
    package static let configurationPath = "configuration/target.conf"
    /// The baseline file the run judged its failures with (`--baseline`), as read: `verify` applies it again to render
    /// the reports as the run did.
    package static let baselinePath = "baseline/baseline.txt"
    /// The Ed25519 signature over manifest.json (which hashes every other file), when the run was given a key.
    package static let signaturePath = "signature.json"

    /// What `signature.json` holds: the signature over manifest.json's bytes and the public key that checks it.
    package struct Signature: Codable, Sendable, Hashable {
        package static let algorithmName = "Ed25519"
        package var algorithm: String
        /// `SHA256:…` of the public key (as `ssh-keygen -l` writes one): what a reviewer compares with the key they trust.
        package var publicKeyFingerprint: String
        package var publicKey: String
        /// base64url, unpadded.
        package var signature: String
    }

    /// The archive: `reports/…`, `cases/…` (paths as the cases digest counts them), the catalog, then the manifest.
    package static func make(
        reports: [(name: String, text: String)], caseFiles: [(path: String, bytes: [UInt8])], catalog: [UInt8],
        attestations: AttestationFile? = nil, configuration: [UInt8]? = nil, baseline: [UInt8]? = nil,
        signingKey: [UInt8]? = nil, run: RunResult, reproducible: Bool = false
    ) throws(Failure) -> [UInt8] {
        var entries = reports.map { TarArchive.Entry(path: "reports/" + $0.name, bytes: Array($0.text.utf8)) }
        entries += caseFiles.map { TarArchive.Entry(path: "cases/" + $0.path, bytes: $0.bytes) }
        entries.append(TarArchive.Entry(path: catalogPath, bytes: catalog))
        if let configuration { entries.append(TarArchive.Entry(path: configurationPath, bytes: configuration)) }
        if let baseline { entries.append(TarArchive.Entry(path: baselinePath, bytes: baseline)) }
        if let attestations {
            // The file as the reviewer wrote it, and each attachment where the reports say it is.
            entries.append(TarArchive.Entry(path: attestationPath, bytes: attestations.bytes))
            for attachment in attestations.attestations.flatMap(\.attachments) {
                entries.append(TarArchive.Entry(path: attachment.bundlePath, bytes: attachment.contents ?? []))
            }
        }
        let provenance = run.provenance
        let manifest = Manifest(
            schema: Manifest.schemaName, version: 1, suiteVersion: provenance.suiteVersion, casesDigest: provenance.caseDigest,
            seed: provenance.seed, target: provenance.target, startedAt: reproducible ? nil : provenance.startedAt,
            durationSeconds: reproducible ? 0 : provenance.duration, verdict: run.overall.rawValue, exitCode: run.exitStatus.rawValue,
            command: provenance.command, arguments: provenance.runArguments,
            files: entries.map { Manifest.File(path: $0.path, sha256: SHA256.hexDigest($0.bytes), bytes: $0.bytes.count) })
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(manifest) else { throw Failure(message: "cannot encode the manifest") }
        let manifestBytes = [UInt8](data) + [0x0A]
        entries.append(TarArchive.Entry(path: manifestPath, bytes: manifestBytes))
        if let signingKey {
            // The manifest hashes every other file: signing it signs the bundle.
            let signed: Ed25519.Signed
            do {
                signed = try Ed25519.sign(manifestBytes, privateKeyPEM: signingKey)
            } catch {
                throw Failure(message: "--sign-key: \(error.message)")
            }
            let signature = Signature(
                algorithm: Signature.algorithmName, publicKeyFingerprint: signed.fingerprint, publicKey: signed.publicKey,
                signature: Base64URL.encode(signed.signature))
            guard let json = try? encoder.encode(signature) else { throw Failure(message: "cannot encode the signature") }
            entries.append(TarArchive.Entry(path: signaturePath, bytes: [UInt8](json) + [0x0A]))
        }
        do {
            return try TarArchive.write(entries)
        } catch {
            throw Failure(message: error.message)
        }
    }

    /// Reads a bundle and checks every file against the manifest (present, the same size and SHA-256, nothing
    /// unlisted), results.json naming the same case files, and the verdict worked out again from results.json's
    /// cases, against which every field the manifest records is held (`contradictions`). Throws only when the
    /// bundle cannot be read at all.
    package static func verify(_ archive: [UInt8]) throws(Failure) -> Verification {
        let entries: [TarArchive.Entry]
        do {
            entries = try TarArchive.read(archive)
        } catch {
            throw Failure(message: error.message)
        }
        let (manifestEntry, manifest) = try readManifest(entries)
        var problems: [String] = []
        var attestations: [ResultsDocument.AttestationEntry] = []
        var readDocument: ResultsDocument?
        let byPath = Dictionary(entries.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        if byPath.count != entries.count { problems.append("a path appears twice in the archive") }
        problems += listingProblems(manifest, entries: entries, byPath: byPath)
        let catalog = byPath[catalogPath].flatMap { try? CatalogLoader.load(bytes: $0.bytes, file: catalogPath) }
        let suite = try? CaseLoader.load(
            files: entries.filter { $0.path.hasPrefix("cases/") }.map { SuiteFile(path: $0.path, bytes: $0.bytes) },
            base: "cases", catalog: catalog)
        switch byPath["reports/results.json"].map({ entry in
            Result { () throws(ResultsDocument.ReadFailure) in try ResultsDocument.parse(Data(entry.bytes)) }
        }) {
        case .success(let document)?:
            problems += documentProblems(document, manifest: manifest, entries: entries, byPath: byPath, suite: suite, catalog: catalog)
            attestations = document.attestations ?? []
            readDocument = document
        case .failure(let failure)?:
            problems.append("reports/results.json cannot be read: \(failure.message)")
        case nil:
            problems.append("reports/results.json is missing")
        }
        let signature = signatureCheck(byPath, manifest: manifestEntry.bytes)
        problems += certificationProblems(readDocument, attestations: attestations, signature: signature)
        return Verification(
            manifest: manifest, problems: problems, entries: entries, attestations: attestations, document: readDocument,
            signature: signature)
    }

    /// The manifest, read strictly (a member written twice is refused as ambiguous).
    private static func readManifest(_ entries: [TarArchive.Entry]) throws(Failure) -> (TarArchive.Entry, Manifest) {
        guard let manifestEntry = entries.first(where: { $0.path == manifestPath }) else { throw Failure(message: "no manifest.json in the bundle") }
        do {
            try JSONReader.check(manifestEntry.bytes)
        } catch {
            throw Failure(message: "manifest.json is not a bundle manifest: " + (error.isRepeatedMember ? error.message : "not JSON"))
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        guard let manifest = try? decoder.decode(Manifest.self, from: Data(manifestEntry.bytes)), manifest.schema == Manifest.schemaName else {
            throw Failure(message: "manifest.json is not a bundle manifest")
        }
        return (manifestEntry, manifest)
    }

    /// Every file the manifest lists is there with its size and SHA-256, and nothing else is.
    private static func listingProblems(_ manifest: Manifest, entries: [TarArchive.Entry], byPath: [String: TarArchive.Entry]) -> [String] {
        var problems: [String] = []
        for file in manifest.files {
            guard let entry = byPath[file.path] else {
                problems.append("\(file.path) is listed but missing")
                continue
            }
            if entry.bytes.count != file.bytes || SHA256.hexDigest(entry.bytes) != file.sha256 {
                problems.append("\(file.path) does not match its SHA-256 in the manifest (changed after the run)")
            }
        }
        let listed = Set(manifest.files.map(\.path) + [manifestPath, signaturePath])
        for entry in entries where !listed.contains(entry.path) {
            problems.append("\(entry.path) is in the bundle but not in the manifest")
        }
        return problems
    }

    /// What results.json contradicts: the manifest, the other reports, its own cases, the attestations, and any file
    /// the layout does not explain.
    private static func documentProblems(
        _ document: ResultsDocument, manifest: Manifest, entries: [TarArchive.Entry], byPath: [String: TarArchive.Entry], suite: CaseSuite?,
        catalog: Catalog?
    ) -> [String] {
        var problems: [String] = []
        if document.suite.casesDigest != manifest.casesDigest { problems.append("results.json names other case files than the manifest") }
        let text = { (path: String) in byPath[path].map { String(decoding: $0.bytes, as: UTF8.self) } }
        problems += contradictions(
            manifest: manifest, document: document, junit: text("reports/junit.xml"), report: text("reports/report.md"),
            suite: suite, catalog: catalog)
        problems += htmlContradictions(text("reports/report.html"), document: document, suite: suite, catalog: catalog)
        problems += renderingContradictions(document: document, byPath: byPath, suite: suite, catalog: catalog)
        // A bundle holds what its layout explains and nothing else: a file no part of it accounts for (an
        // attachment no attestation lists) is one a verification would vouch for without reason.
        let explained = Set((document.attestations ?? []).flatMap { $0.attachments.map(\.bundlePath) })
        for entry in entries where !Self.isLayoutPath(entry.path, baseline: document.outcome.baseline != nil) && !explained.contains(entry.path) {
            problems.append(
                entry.path == baselinePath
                    ? "\(baselinePath) is in the bundle, but results.json records no baseline"
                    : "\(entry.path) is in the bundle, but nothing in its layout explains it (no attestation lists it)")
        }
        problems += attestationContradictions(document: document, report: text("reports/report.md"), byPath: byPath, catalog: catalog)
        return problems
    }

    /// A certification's own rules: its attestations signed, and no adapter changed while its cases ran.
    private static func certificationProblems(
        _ document: ResultsDocument?, attestations: [ResultsDocument.AttestationEntry], signature: SignatureCheck
    )
        -> [String]
    {
        var problems: [String] = []
        let readDocument = document
        // A certification's attestations are part of what is signed: unsigned, anyone could have added them after the
        // run (edited into results.json and rendered again) and no file of the bundle could tell.
        if readDocument?.run.certification == true, !attestations.isEmpty, signature == .unsigned {
            problems.append(
                "the certification's attestations are not signed: anyone could have added them after the run "
                    + "(run --sign-key or merge --sign-key signs them with everything else)")
        }
        // A certification of a run whose adapter changed while its cases ran tested no single program: it is never
        // verified, however honest the bundle is about it.
        if readDocument?.run.certification == true {
            for adapter in readDocument?.run.adapters ?? [] where adapter.sha256Before != nil && adapter.sha256Before != adapter.sha256 {
                problems.append(
                    "the certification's \(adapter.role) \(adapter.path) changed while its cases ran (sha256 \(adapter.sha256Before ?? "") "
                        + "before the first case, \(adapter.sha256 ?? "unreadable") after the last): no single program was tested")
            }
        }
        return problems
    }

    /// Whether `path` is one of the files every bundle may hold by its layout: the reports, the case files, the
    /// catalog, the manifest and signature, the configuration, the attestation file (attachments are explained by
    /// the attestations that list them; the baseline by results.json recording one).
    static func isLayoutPath(_ path: String, baseline: Bool = false) -> Bool {
        if baseline, path == baselinePath { return true }
        return [
            "reports/junit.xml", "reports/report.md", "reports/report.html", "reports/results.json", catalogPath, manifestPath, signaturePath,
            configurationPath, attestationPath,
        ].contains(path) || (path.hasPrefix("cases/") && path.hasSuffix(".case"))
    }

    /// What the bundle's signature says: none, one that does not check, or the key that made it.
    package enum SignatureCheck: Sendable, Hashable {
        case unsigned
        /// Signed, and the signature checks against the public key it carries (whose fingerprint this is).
        case signed(fingerprint: String, publicKey: String)
        /// A signature.json that is unreadable, or whose signature does not check: why.
        case invalid(String)
    }

    private static func signatureCheck(_ byPath: [String: TarArchive.Entry], manifest: [UInt8]) -> SignatureCheck {
        guard let entry = byPath[signaturePath] else { return .unsigned }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        guard (try? JSONReader.check(entry.bytes)) != nil, let signature = try? decoder.decode(Signature.self, from: Data(entry.bytes)) else {
            return .invalid("signature.json is not a bundle signature")
        }
        guard signature.algorithm == Signature.algorithmName, let bytes = Base64URL.decode(signature.signature) else {
            return .invalid("signature.json names the algorithm '\(signature.algorithm)', not Ed25519, or its signature is not base64url")
        }
        do {
            let (valid, fingerprint) = try Ed25519.verify(bytes, of: manifest, publicKeyPEM: Array(signature.publicKey.utf8))
            guard fingerprint == signature.publicKeyFingerprint else {
                return .invalid("signature.json's fingerprint \(signature.publicKeyFingerprint) is not its key's (\(fingerprint))")
            }
            return valid
                ? .signed(fingerprint: fingerprint, publicKey: signature.publicKey)
                : .invalid(
                    "the signature does not check against manifest.json with the key it names (\(fingerprint)): the manifest changed after signing")
        } catch {
            return .invalid("signature.json's key cannot be read: \(error.message)")
        }
    }
}
