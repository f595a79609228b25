import AppFlipBase
import AppFlipChecks
import AppFlipDigest
import AppFlipModel
import AppFlipSyntax
import Foundation

/// Reads an attestation file (`--attest FILE`), written in the case-file syntax:
///
/// ```
/// attestations:
///   - requirement: AF-LINK-021
///     verdict: pass                  # pass, fail or not-applicable
///     by: Jane Reviewer, Example Certification Ltd
///     date: 2026-11-25
///     note: The consent screen of build 4.2.0 names Google Home and the scopes asked for.
///     attachments: ["consent-screen.png"]   # optional; paths relative to this file
/// ```
/// Only a requirement the catalog marks `not_observable` can be attested: one the suite's cases judge keeps its
/// machine verdict. A malformed file is an error with its line and column; nothing of it is used then.
package enum AttestationLoader {
    /// Bounds on what a file can make the suite read and carry into the bundle.
    package static let attachmentLimit = 16 << 20
    package static let totalAttachmentLimit = 64 << 20
    package static let attachmentsPerAttestation = 32

    /// What a run allows of an attestation besides the catalog's rules: no date after the run's (`latestDate`,
    /// YYYY-MM-DD), and, in a certification, only requirements of its programs.
    package struct Bounds: Sendable {
        package var latestDate: String?
        package var programs: [CertificationProgram]?

        package init(latestDate: String? = nil, programs: [CertificationProgram]? = nil) {
            self.latestDate = latestDate
            self.programs = programs
        }
    }

    package static func load(path: String, catalog: Catalog, bounds: Bounds = Bounds()) throws(DiagnosticList) -> AttestationFile {
        let bytes = try BoundedFile.readSyntaxFile(path, what: "the attestation file")
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return try load(bytes: bytes, file: path, catalog: catalog, bounds: bounds) { attachment in
            Result { () throws(BoundedFile.Failure) in try readAttachment(attachment, in: directory) }
        }
    }

    /// An attachment's bytes: a relative path to a regular file that, every link resolved, lies inside `directory`
    /// (the attestation file's), read to `attachmentLimit`. Anything else would let a file name put what lies outside
    /// (`/proc/self/environ`, with the run's client secret, or `../../.ssh/…`) into a bundle a reviewer passes on.
    static func readAttachment(_ path: String, in directory: String) throws(BoundedFile.Failure) -> [UInt8] {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.hasPrefix("~") else {
            throw BoundedFile.Failure(path: path, reason: "is not a path relative to the attestation file's folder")
        }
        let folder = URL(fileURLWithPath: directory).resolvingSymlinksInPath().standardizedFileURL.path
        let resolved = URL(fileURLWithPath: folder + "/" + path).resolvingSymlinksInPath().standardizedFileURL.path
        guard resolved.hasPrefix(folder == "/" ? "/" : folder + "/") else {
            throw BoundedFile.Failure(path: path, reason: "leads outside the attestation file's folder")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), !isDirectory.boolValue,
            (try? FileManager.default.attributesOfItem(atPath: resolved)[.type] as? FileAttributeType) == .typeRegular
        else {
            throw BoundedFile.Failure(path: path, reason: "is not a regular file")
        }
        return try BoundedFile.read(resolved, limit: attachmentLimit)
    }

    /// `read` gives an attachment's bytes by its path as written, or why they cannot be had.
    package static func load(
        bytes: [UInt8], file: String, catalog: Catalog, bounds: Bounds = Bounds(),
        read: (String) -> Result<[UInt8], BoundedFile.Failure>
    ) throws(DiagnosticList) -> AttestationFile {
        let node = try Parser.parse(bytes: bytes, file: file)
        var reader = NodeReader(document: bytes)
        var attestations: [Attestation] = []
        var total = 0
        if let document = reader.mapping(node, "the attestation file"),
            reader.checkKeys(document, allowed: ["attestations"], required: ["attestations"], in: "the attestation file"),
            let list = document["attestations"].flatMap({ reader.sequence($0, "'attestations'") })
        {
            for item in list.items {
                guard let attestation = attestation(item, catalog: catalog, bounds: bounds, total: &total, read: read, reader: &reader) else {
                    continue
                }
                if attestations.contains(where: { $0.requirement == attestation.requirement }) {
                    reader.error(at: item.location, "\(attestation.requirement) is attested twice")
                }
                attestations.append(attestation)
            }
        }
        if !reader.diagnostics.isEmpty { throw DiagnosticList(reader.diagnostics) }
        // Hashed once the whole file is known good: a file refused costs no hashing of what it names.
        for index in attestations.indices {
            for attachment in attestations[index].attachments.indices {
                attestations[index].attachments[attachment].sha256 = SHA256.hexDigest(attestations[index].attachments[attachment].contents ?? [])
            }
        }
        return AttestationFile(path: file, bytes: bytes, attestations: attestations)
    }

    private static func attestation(
        _ node: Node, catalog: Catalog, bounds: Bounds, total: inout Int, read: (String) -> Result<[UInt8], BoundedFile.Failure>,
        reader: inout NodeReader
    ) -> Attestation? {
        guard let mapping = reader.mapping(node, "an attestation"),
            reader.checkKeys(
                mapping, allowed: ["requirement", "verdict", "by", "date", "note", "attachments"],
                required: ["requirement", "verdict", "by", "date", "note"], in: "an attestation"),
            let id = mapping["requirement"].flatMap({ reader.scalar($0, "'requirement'") }),
            let verdict = mapping["verdict"].flatMap({ reader.enumValue($0, "verdict", as: Attestation.Verdict.self) }),
            let by = mapping["by"].flatMap({ reader.scalar($0, "'by'") }),
            let date = mapping["date"].flatMap({ reader.scalar($0, "'date'") }),
            let note = mapping["note"].flatMap({ reader.scalar($0, "'note'") })
        else { return nil }
        guard let requirement = catalog[id.text] else {
            let hint = Suggestion.closest(to: id.text, among: catalog.requirements.map(\.id)).map { " (did you mean '\($0)'?)" } ?? ""
            reader.error(at: id.location, "'\(id.text)' is not a requirement of the catalog\(hint)")
            return nil
        }
        guard requirement.notObservable != nil else {
            let attestable = catalog.requirements.filter { $0.notObservable != nil }.map(\.id)
            reader.error(
                at: id.location,
                "\(id.text) is judged by the suite's cases; only a requirement no machine can judge can be "
                    + "attested by hand (the catalog's not_observable ones: \(attestable.joined(separator: ", ")))")
            return nil
        }
        if let programs = bounds.programs, !programs.contains(where: { $0.needs(requirement) }) {
            reader.error(
                at: id.location,
                "\(id.text) is no requirement of the certification's programs (\(programs.map(\.key).joined(separator: ", "))): "
                    + "an attestation speaks only for what the run certifies")
            return nil
        }
        guard by.text.trimmingCharacters(in: .whitespaces).count >= 2 else {
            reader.error(at: by.location, "'by' names who signs the attestation off")
            return nil
        }
        guard BaselineLoader.isDate(date.text) else {
            reader.error(at: date.location, "'date' is a date that exists, YYYY-MM-DD ('\(date.text)' is not)")
            return nil
        }
        // ISO dates compare as text: a judgement dated after the run did not exist when the run was made.
        if let latest = bounds.latestDate, date.text > latest {
            reader.error(at: date.location, "'date' \(date.text) is after the run (\(latest)): an attestation cannot be dated later")
            return nil
        }
        guard note.text.trimmingCharacters(in: .whitespacesAndNewlines).count >= 10 else {
            reader.error(at: note.location, "'note' says what was checked and how (at least 10 characters)")
            return nil
        }
        var attachments: [Attestation.Attachment] = []
        if let node = mapping["attachments"] {
            guard let read = self.attachments(node, requirement: requirement.id, total: &total, read: read, reader: &reader) else { return nil }
            attachments = read
        }
        return Attestation(
            requirement: requirement.id, verdict: verdict, by: by.text.trimmingCharacters(in: .whitespaces), date: date.text,
            note: note.text.trimmingCharacters(in: .whitespacesAndNewlines), attachments: attachments, location: node.location)
    }

    /// The files an attestation's `attachments:` lists, each read within its bound and the file's total; nil when
    /// there are too many (each other problem is a diagnostic at its path, and the attachment is left out).
    private static func attachments(
        _ node: Node, requirement: String, total: inout Int, read: (String) -> Result<[UInt8], BoundedFile.Failure>, reader: inout NodeReader
    ) -> [Attestation.Attachment]? {
        var attachments: [Attestation.Attachment] = []
        if let listed = reader.scalarList(node, "'attachments'") {
            if listed.count > attachmentsPerAttestation {
                reader.error(at: node.location, "at most \(attachmentsPerAttestation) attachments an attestation, not \(listed.count)")
                return nil
            }
            for path in listed {
                let data: [UInt8]
                switch read(path.text) {
                case .success(let bytes):
                    data = bytes
                case .failure(let failure) where failure.reason == "cannot be read":
                    reader.error(at: path.location, "cannot read the attachment '\(path.text)' (paths are relative to the attestation file)")
                    continue
                case .failure(let failure):
                    reader.error(at: path.location, "the attachment '\(path.text)' \(failure.reason)")
                    continue
                }
                guard data.count <= attachmentLimit else {
                    reader.error(at: path.location, "'\(path.text)' is \(data.count) bytes; an attachment is at most \(attachmentLimit) bytes")
                    continue
                }
                total += data.count
                guard total <= totalAttachmentLimit else {
                    reader.error(at: path.location, "the attachments pass \(totalAttachmentLimit) bytes in all")
                    continue
                }
                let bytes = data
                let name = bundleName(path.text, taken: Set(attachments.map(\.bundlePath)), requirement: requirement)
                attachments.append(Attestation.Attachment(path: path.text, bundlePath: name, sha256: "", bytes: bytes.count, contents: bytes))
            }
        }
        return attachments
    }

    /// `attestations/AF-LINK-021/consent-screen.png`: the file's name with anything but letters, digits and `._-`
    /// made `_`, and a number before it when another attachment of the requirement has that name.
    private static func bundleName(_ path: String, taken: Set<String>, requirement: String) -> String {
        let last = path.split(separator: "/").last.map(String.init) ?? "attachment"
        var name = String(
            last.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar)) ? Character(scalar) : "_"
            }.prefix(100))
        if name.isEmpty || name.allSatisfy({ $0 == "." }) { name = "attachment" }
        var candidate = "attestations/\(requirement)/\(name)"
        var number = 2
        while taken.contains(candidate) {
            candidate = "attestations/\(requirement)/\(number)-\(name)"
            number += 1
        }
        return candidate
    }
}
