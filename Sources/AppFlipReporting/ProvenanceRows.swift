import AppFlipModel

/// The provenance every report shows, row by row (report.md's table, report.html's list): what ran, from which build,
/// against which target, with which seed and TLS, by whom. Digests and commits are written as Markdown code
/// (`` sha256 `…` ``); `ownCode` tells when a value is such a row as written here.
package enum ProvenanceRows {
    package static func rows(_ provenance: Provenance, reproducible: Bool) -> [(name: String, value: String)] {
        let samples: String = provenance.samples.map { "\($0) per sampling check (--samples)" } ?? "as each case states"
        var rows: [(name: String, value: String)] = [
            ("Suite version", provenance.suiteVersion),
            ("Case files", "\(provenance.caseFileCount) files, sha256 `\(provenance.caseDigest)`"),
        ]
        if let digest = provenance.catalogDigest { rows.append(("Catalog", "sha256 `\(digest)`")) }
        if let cases = provenance.casesBuiltIn, let catalog = provenance.catalogBuiltIn {
            let custom = [cases ? nil : "case files", catalog ? nil : "catalog"].compactMap { $0 }
            rows.append(
                (
                    "Suite",
                    custom.isEmpty
                        ? "the case files and catalog built into suite \(provenance.suiteVersion)"
                        : "CUSTOM: not the suite's own " + custom.joined(separator: " and ") + ", so not a certification"
                ))
        }
        rows += [
            ("Seed", String(provenance.seed)),
            ("Target", provenance.target),
        ]
        if let label = provenance.targetLabel { rows.append(("Target label", label)) }
        if let version = provenance.targetVersion { rows.append(("Target version", version)) }
        rows += [
            ("Mode", provenance.mode),
            ("Jobs", String(provenance.jobs)),
            ("Filter", provenance.filter ?? "(none)"),
            ("Samples", samples),
            (
                "TLS",
                provenance.transport.isEmpty
                    ? "not used: every endpoint of this run is plain http"
                    : provenance.transport.joined(separator: "; ")
            ),
        ]
        if let startup = provenance.handlerStartup { rows.append(("Handler start-up", startup)) }
        if let digest = provenance.executableSHA256 { rows.append(("Executable", "sha256 `\(digest)`")) }
        if let commit = provenance.sourceCommit { rows.append(("Built from", "commit `\(commit)`")) }
        if let platform = provenance.platform { rows.append(("Platform", platform)) }
        if let toolchain = provenance.toolchain { rows.append(("Toolchain", toolchain)) }
        for file in provenance.adapterFiles { rows.append(("Adapter", file.summary)) }
        if !reproducible {
            rows.append(("Run by", provenance.runBy ?? "not recorded (no --operator, no CI job's variables, no $USER)"))
            if let host = provenance.host { rows.append(("Host", host)) }
            rows += [("Started (UTC)", provenance.startedAt), ("Wall time", ReportFormatting.seconds(provenance.duration) + " s")]
            if let measured = provenance.handlerStartupMeasured { rows.append(("Handler start-up times", measured)) }
        }
        return rows
    }

    /// For a digest or commit row as written here (`sha256 `hex``): the text before the code and the code. Nil for any
    /// other row, or one whose code is not hex (a merged results.json could carry anything there).
    package static func ownCode(_ name: String, _ value: String) -> (prefix: String, code: String)? {
        let parts = value.split(separator: "`", omittingEmptySubsequences: false)
        guard ["Case files", "Catalog", "Executable", "Built from"].contains(name), parts.count == 3, parts[2].isEmpty,
            parts[0].allSatisfy({ $0.isLetter || $0.isNumber || $0 == " " || $0 == "," }), parts[1].allSatisfy(\.isHexDigit)
        else { return nil }
        return (String(parts[0]), String(parts[1]))
    }
}
