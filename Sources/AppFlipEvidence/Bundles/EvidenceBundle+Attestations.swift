import AppFlipDigest
import AppFlipLoading
import AppFlipModel
import AppFlipReporting
import AppFlipSyntax

/// A bundle's attestations, checked three ways: the attestation file the reviewer wrote (`attestations/attestations.txt`)
/// is read again, its attachments taken from the bundle, and must give exactly what results.json records (each
/// requirement, verdict, signer, date, note, and each attachment's path, place, size and SHA-256); report.md's
/// "Attested by hand" section must list the same; and each attachment in the bundle must hash as recorded. Changing
/// any one of them (and the manifest's hash of it) leaves a contradiction.
extension EvidenceBundle {
    static func attestationContradictions(
        document: ResultsDocument, report: String?, byPath: [String: TarArchive.Entry],
        catalog: Catalog?
    ) -> [String] {
        var problems: [String] = []
        let recorded = document.attestations ?? []
        for attachment in recorded.flatMap(\.attachments) {
            guard let entry = byPath[attachment.bundlePath] else {
                problems.append("\(attachment.bundlePath) is missing: results.json lists it as an attestation's attachment")
                continue
            }
            if SHA256.hexDigest(entry.bytes) != attachment.sha256 || entry.bytes.count != attachment.bytes {
                problems.append("\(attachment.bundlePath) is not the attachment results.json records (its SHA-256 differs)")
            }
        }
        switch (byPath[attestationPath], document.attestations) {
        case (nil, nil):
            break
        case (nil, _?):
            problems.append("\(attestationPath) is missing: results.json lists attestations")
        case (let file?, _):
            problems += reread(file.bytes, recorded: recorded, byPath: byPath, catalog: catalog, document: document)
        }
        if let report { problems += reportContradictions(report, recorded: recorded) }
        return problems
    }

    /// The attestation file read again against what results.json records.
    private static func reread(
        _ bytes: [UInt8], recorded: [ResultsDocument.AttestationEntry], byPath: [String: TarArchive.Entry],
        catalog: Catalog?, document: ResultsDocument
    ) -> [String] {
        guard let catalog else { return ["\(attestationPath) cannot be checked: the bundled catalog does not load"] }
        let places = Dictionary(recorded.flatMap(\.attachments).map { ($0.path, $0.bundlePath) }, uniquingKeysWith: { first, _ in first })
        let file: AttestationFile
        do {
            // As the run read it: no date after the run's start, and in a certification only its programs' requirements.
            let programs = document.run.certification == true ? (document.run.certificationPrograms ?? catalog.programs.map(\.key)) : nil
            let bounds = AttestationLoader.Bounds(
                latestDate: document.run.startedAt.map { String($0.prefix(10)) }, programs: programs?.compactMap { catalog.program($0) })
            file = try AttestationLoader.load(bytes: bytes, file: attestationPath, catalog: catalog, bounds: bounds) { path in
                guard let place = places[path], let entry = byPath[place] else {
                    return .failure(BoundedFile.Failure(path: path, reason: "is not an attachment results.json records"))
                }
                return .success(entry.bytes)
            }
        } catch {
            return error.diagnostics.map { "\(attestationPath):\($0.location.line):\($0.location.column): \($0.message)" }
        }
        let reread = file.attestations.map { attestation in
            ResultsDocument.AttestationEntry(
                requirement: attestation.requirement, verdict: attestation.verdict.rawValue, by: attestation.by,
                date: attestation.date, note: attestation.note,
                attachments: attestation.attachments.map {
                    ResultsDocument.AttachmentEntry(path: $0.path, bundlePath: $0.bundlePath, sha256: $0.sha256, bytes: $0.bytes)
                })
        }
        var problems: [String] = []
        let byRequirement = Dictionary(recorded.map { ($0.requirement, $0) }, uniquingKeysWith: { first, _ in first })
        for attestation in reread {
            guard let entry = byRequirement[attestation.requirement] else {
                problems.append("\(attestationPath) attests \(attestation.requirement), which results.json does not record")
                continue
            }
            if entry != attestation {
                problems.append(
                    "results.json records the attestation of \(attestation.requirement) otherwise than \(attestationPath) gives it "
                        + "(\(entry.verdict) against \(attestation.verdict), or its signer, date, note or attachments)")
            }
        }
        let attested = Set(reread.map(\.requirement))
        for entry in recorded where !attested.contains(entry.requirement) {
            problems.append("results.json records an attestation of \(entry.requirement) that \(attestationPath) does not give")
        }
        return problems
    }

    /// report.md's "Attested by hand" section against what results.json records.
    private static func reportContradictions(_ report: String, recorded: [ResultsDocument.AttestationEntry]) -> [String] {
        guard let start = report.range(of: "\n## Attested by hand\n") else {
            return recorded.isEmpty ? [] : ["report.md has no \"Attested by hand\" section, but results.json records attestations"]
        }
        let section = report[start.upperBound...].components(separatedBy: "\n## ").first ?? ""
        let lines = section.split(separator: "\n")
        var problems: [String] = []
        let listed = lines.filter { $0.hasPrefix("- **") }.compactMap { line in line.dropFirst(4).split(separator: "*").first.map(String.init) }
        if listed.sorted() != recorded.map(\.requirement).sorted() {
            problems.append(
                "report.md lists the attestations of \(listed.joined(separator: ", ")), but results.json records "
                    + recorded.map(\.requirement).joined(separator: ", "))
        }
        for attestation in recorded {
            guard let line = lines.first(where: { $0.hasPrefix("- **\(attestation.requirement)**") }) else { continue }
            if !line.contains("**\(attestation.verdict)**, attested by") {
                problems.append(
                    "report.md does not give the attestation of \(attestation.requirement) as \(attestation.verdict), which results.json records")
            }
            for attachment in attestation.attachments {
                let shown =
                    "attachment `\(MarkdownText.inline(attachment.bundlePath, limit: 300))` (\(attachment.bytes) bytes, sha256 `\(attachment.sha256)`)"
                if !section.contains(shown) {
                    problems.append("report.md does not list \(attachment.bundlePath) with the size and SHA-256 results.json records")
                }
            }
        }
        return problems
    }
}
