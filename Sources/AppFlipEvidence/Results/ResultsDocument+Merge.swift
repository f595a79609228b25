import AppFlipBase
import AppFlipDigest
import AppFlipModel
import AppFlipReporting

/// Shards back into one run (`merge`): the shards must come from the same suite, case files, seed and target, and
/// together hold every shard of the split, each case once. The results are rebuilt against the case files and
/// catalog at hand (whose digest must be the shards'), so the merged reports are written by the same writers as
/// any run's.
extension ResultsDocument {
    package struct MergeFailure: Error, Sendable {
        package var message: String
    }

    /// `selection` gives the IDs of the cases a run's arguments select before any `--shard` (its profiles and
    /// filters, against `suite`), or nil when they cannot say (a run without recorded arguments, or one narrowed to
    /// an earlier run's failures): each shard must then hold exactly the cases of that selection its `I/N` picks.
    /// `asRecorded` reads one run back as it was recorded (`verify` renders a bundle's reports again from it): a
    /// shard stays one shard, with its command line, and no split has to be complete.
    package static func merge(
        _ shards: [(document: ResultsDocument, file: String)], suite: CaseSuite, catalog: Catalog,
        selection: (ResultsDocument) -> Set<String>? = { _ in nil }, asRecorded: Bool = false
    ) throws(MergeFailure) -> RunResult {
        guard let first = shards.first else { throw MergeFailure(message: "nothing to merge") }
        try checkSameRun(shards)
        guard first.document.suite.casesDigest == suite.digest else {
            throw MergeFailure(
                message: "the case files here (sha256 \(suite.digest.prefix(12))…) are not the ones the shards ran "
                    + "(\(first.document.suite.casesDigest.prefix(12))…): give the same --cases and --catalog")
        }
        if let recorded = first.document.suite.catalogDigest, let here = catalog.file.map({ SHA256.hexDigest($0.bytes) }), recorded != here {
            throw MergeFailure(
                message: "the catalog here (sha256 \(here.prefix(12))…) is not the one the shards ran (\(recorded.prefix(12))…): "
                    + "give the same --catalog")
        }
        // One run read back as it was recorded (`verify` renders a bundle's reports again): a shard stays a shard.
        if !asRecorded { try checkShards(shards) }
        try checkMembership(shards, selection: selection)
        for (document, file) in shards {
            // Each shard's derived fields derived again, the requirements and profiles against these case files.
            if let contradiction = document.contradictions(suite: suite, catalog: catalog).first {
                throw MergeFailure(message: "\(file) contradicts itself: \(contradiction)")
            }
        }
        let results = try caseResults(shards, suite: suite)
        let attested = first.document.attestations
        if let other = shards.first(where: { $0.document.attestations != attested }) {
            throw MergeFailure(message: "\(other.file) carries other attestations than \(first.file): shards of one run were given the same --attest")
        }
        let provenance = mergedProvenance(shards, catalog: catalog, asRecorded: asRecorded)
        var merged = RunResult(
            results: results, catalog: catalog, provenance: provenance,
            incomplete: shards.contains { $0.document.run.incomplete })
        merged.attestations = try (attested ?? []).map { entry throws(MergeFailure) in try attestation(entry, file: first.file) }
        if !asRecorded { try checkPrograms(provenance.certificationPrograms, results: results, suite: suite, catalog: catalog) }
        for key in provenance.certificationPrograms {
            if let program = catalog.program(key) { merged.programCases[key] = program.caseIDs(in: suite.cases) }
        }
        return merged
    }

    /// The shards come from one run: the same suite, case files, catalog, seed, target, command, build and adapters.
    private static func checkSameRun(_ shards: [(document: ResultsDocument, file: String)]) throws(MergeFailure) {
        guard let first = shards.first else { return }
        for (document, file) in shards.dropFirst() {
            let differences = [
                ("suite version", document.suite.version, first.document.suite.version),
                ("case files", document.suite.casesDigest, first.document.suite.casesDigest),
                ("catalog", document.suite.catalogDigest ?? "unrecorded", first.document.suite.catalogDigest ?? "unrecorded"),
                ("seed", String(document.run.seed), String(first.document.run.seed)),
                ("target", sameTarget(document.run.target), sameTarget(first.document.run.target)),
                // The same command but for where each shard ran and wrote: the same client IDs, profiles, filters,
                // mode and configuration file.
                ("command line", sameCommand(document.run.arguments), sameCommand(first.document.run.arguments)),
                // The same build judged every shard, and every shard tested the same adapters, byte for byte.
                ("suite executable", document.run.executableSha256 ?? "unrecorded", first.document.run.executableSha256 ?? "unrecorded"),
                ("adapters", sameAdapters(document.run.adapters), sameAdapters(first.document.run.adapters)),
            ].filter { $0.1 != $0.2 }
            if let (what, this, other) = differences.first {
                let shown =
                    what == "target" || what == "adapters" ? "see the \(what) in each results.json" : "\(this) and \(other)"
                throw MergeFailure(message: "\(file) has another \(what) than \(first.file) (\(shown)): shards of one run only")
            }
        }
    }

    /// Every shard's cases rebuilt against the case files, each once, in the case files' order.
    private static func caseResults(_ shards: [(document: ResultsDocument, file: String)], suite: CaseSuite) throws(MergeFailure) -> [CaseResult] {
        let cases = Dictionary(suite.cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var seen = Set<String>()
        var results: [CaseResult] = []
        for (document, file) in shards {
            for entry in document.cases {
                guard seen.insert(entry.id).inserted else { throw MergeFailure(message: "case \(entry.id) is in more than one shard (\(file))") }
                guard let conformanceCase = cases[entry.id] else { throw MergeFailure(message: "\(file): case \(entry.id) is not in the case files") }
                results.append(try result(entry, conformanceCase, file: file))
            }
        }
        let order = Dictionary(suite.cases.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        results.sort { (order[$0.conformanceCase.id] ?? 0) < (order[$1.conformanceCase.id] ?? 0) }
        return results
    }

    /// The merged run's provenance: the first shard's, with what differs between shards combined.
    private static func mergedProvenance(_ shards: [(document: ResultsDocument, file: String)], catalog: Catalog, asRecorded: Bool) -> Provenance {
        let first = shards[0]
        let run = first.document.run
        var provenance = Provenance(
            suiteVersion: first.document.suite.version, caseDigest: first.document.suite.casesDigest,
            caseFileCount: first.document.suite.caseFiles, seed: run.seed, target: run.target, mode: run.mode,
            jobs: run.jobs, filter: run.filter, startedAt: shards.compactMap(\.document.run.startedAt).min() ?? "",
            // The shards ran side by side: the merged run took as long as the slowest.
            duration: shards.map(\.document.run.durationSeconds).max() ?? 0, command: run.command)
        provenance.samples = run.samples
        provenance.catalogDigest = first.document.suite.catalogDigest
        provenance.casesBuiltIn = first.document.suite.casesBuiltIn
        provenance.catalogBuiltIn = first.document.suite.catalogBuiltIn
        provenance.transport = run.transport
        provenance.handlerStartup = run.handlerStartup
        // Measured in one run; shards' are theirs alone.
        provenance.handlerStartupMeasured = shards.count == 1 ? run.handlerStartupMeasured : nil
        provenance.executableSHA256 = run.executableSha256
        provenance.sourceCommit = run.sourceCommit
        provenance.platform = run.platform
        provenance.toolchain = run.toolchain
        provenance.targetLabel = run.targetLabel
        provenance.targetVersion = run.targetVersion
        // What was tested is the same in every shard (the same digests, checked above), wherever each shard had it:
        // every shard's files are recorded, each once. Who ran each and where may differ: all named.
        var adapters: [AdapterEntry] = []
        for entry in shards.flatMap({ $0.document.run.adapters ?? [] }) where !adapters.contains(entry) { adapters.append(entry) }
        provenance.adapterFiles = adapters.map(\.file)
        let runners = shards.compactMap(\.document.run.runBy).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        provenance.runBy = runners.isEmpty ? nil : runners.joined(separator: "; ")
        let hosts = shards.compactMap(\.document.run.host).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        provenance.host = hosts.isEmpty ? nil : hosts.joined(separator: "; ")
        if shards.allSatisfy({ $0.document.run.certification == true }) {
            provenance.certificationPrograms = run.certificationPrograms ?? catalog.programs.map(\.key)
        }
        if asRecorded {
            provenance.shard = run.shard
            provenance.runArguments = run.arguments
        } else if let arguments = run.arguments {
            provenance.runArguments = CommandLineText.removing("--shard", from: arguments)
            provenance.command = CommandLineText.quoted(
                provenance.runArguments ?? arguments, subcommand: "run",
                program: CommandLineText.program(of: run.command))
        }
        return provenance
    }

    /// A certification is its programs' whole case lists: shards that do not cover them certify nothing.
    private static func checkPrograms(_ keys: [String], results: [CaseResult], suite: CaseSuite, catalog: Catalog) throws(MergeFailure) {
        for key in keys {
            guard let program = catalog.program(key) else { continue }
            let expected = program.caseIDs(in: suite.cases)
            let held = results.filter { program.judges($0.conformanceCase) }.map(\.conformanceCase.id)
            let reasons = ProgramOutcome.caseListReasons(held, all: results.map(\.conformanceCase.id), expected: expected)
            if !reasons.isEmpty {
                throw MergeFailure(
                    message: "these shards do not cover the program \(program.title): " + reasons.joined(separator: "; ")
                        + " (a certification is every case of its programs, once)")
            }
        }
    }

    /// The adapters a shard tested, as their roles and digests (paths may differ between machines).
    static func sameAdapters(_ adapters: [AdapterEntry]?) -> String {
        (adapters ?? []).map { "\($0.role) \($0.sha256 ?? "unhashed")" }.sorted().joined(separator: "\u{0}")
    }

    /// An attestation as results.json recorded it (its attachments' bytes stay in the shard's bundle, if any).
    private static func attestation(_ entry: AttestationEntry, file: String) throws(MergeFailure) -> Attestation {
        guard let verdict = Attestation.Verdict(rawValue: entry.verdict) else {
            throw MergeFailure(message: "\(file): the attestation of \(entry.requirement) has verdict '\(entry.verdict)'")
        }
        return Attestation(
            requirement: entry.requirement, verdict: verdict, by: entry.by, date: entry.date, note: entry.note,
            attachments: entry.attachments.map {
                Attestation.Attachment(path: $0.path, bundlePath: $0.bundlePath, sha256: $0.sha256, bytes: $0.bytes)
            })
    }

    /// A target description with loopback ports masked: each shard against the built-in reference (or a server a
    /// CI job starts on loopback) gets its own ephemeral port, and is still the same target.
    static func sameTarget(_ description: String) -> String {
        var result = ""
        var rest = Substring(description)
        while let range = rest.range(of: "127.0.0.1:") ?? rest.range(of: "[::1]:") {
            result += rest[..<range.upperBound] + "*"
            rest = rest[range.upperBound...].drop { $0.isNumber }
        }
        return result + rest
    }

    /// A run's arguments without the ones that may differ between its shards (which shard, where it wrote, how many
    /// jobs), so that shards of one run compare equal.
    static func sameCommand(_ arguments: [String]?) -> String {
        guard var words = arguments else { return "-" }
        for option in ["--shard", "--reports", "--summary", "--bundle", "--jobs"] { words = CommandLineText.removing(option, from: words) }
        return words.joined(separator: "\u{0}")
    }

    /// Each shard holds the cases its `I/N` picks, and every one of them: a shard with a failing case taken out (or
    /// one from another split) would make a clean merged verdict of part of the run.
    private static func checkMembership(
        _ shards: [(document: ResultsDocument, file: String)],
        selection: (ResultsDocument) -> Set<String>?
    ) throws(MergeFailure) {
        for (document, file) in shards {
            guard let label = document.run.shard, let shard = Shard(parsing: label) else { continue }
            let held = Set(document.cases.map(\.id))
            if let stray = held.sorted().first(where: { !shard.contains($0) }) {
                throw MergeFailure(message: "\(file) holds case \(stray), which shard \(shard) does not select: not a shard of this split")
            }
            guard let selected = selection(document) else { continue }
            let missing = selected.filter { shard.contains($0) && !held.contains($0) }.sorted()
            if !missing.isEmpty {
                throw MergeFailure(
                    message: "\(file) (shard \(shard)) lacks \(missing.count) of the cases its run selects "
                        + "(\(missing.prefix(3).joined(separator: ", "))\(missing.count > 3 ? ", …" : "")): cases were removed, or it is incomplete")
            }
            if let extra = held.subtracting(selected).sorted().first {
                throw MergeFailure(message: "\(file) holds case \(extra), which its run's profiles and filters do not select")
            }
        }
    }

    /// Every shard of the split, once: `1/4, 2/4, 4/4` is missing 3/4.
    private static func checkShards(_ shards: [(document: ResultsDocument, file: String)]) throws(MergeFailure) {
        let labels = shards.map { $0.document.run.shard }
        guard labels.contains(where: { $0 != nil }) else { return }
        let parsed = labels.compactMap { $0.flatMap(Shard.init(parsing:)) }
        guard parsed.count == shards.count, let total = parsed.first?.count, parsed.allSatisfy({ $0.count == total }) else {
            throw MergeFailure(message: "the runs are not shards of one split: \(labels.map { $0 ?? "(whole run)" }.joined(separator: ", "))")
        }
        let present = Set(parsed.map(\.index))
        guard present.count == parsed.count else { throw MergeFailure(message: "a shard is given twice") }
        let missing = (1...total).filter { !present.contains($0) }
        guard missing.isEmpty else {
            throw MergeFailure(
                message: "shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(total)" }.joined(separator: ", ")) missing: "
                    + "a merged verdict over part of the cases would mislead")
        }
    }

    package static func result(_ entry: CaseEntry, _ conformanceCase: ConformanceCase, file: String) throws(MergeFailure) -> CaseResult {
        guard let verdict = Verdict(rawValue: entry.verdict) else {
            throw MergeFailure(message: "\(file): case \(entry.id) has verdict '\(entry.verdict)'")
        }
        var checks: [CheckResult] = []
        for check in entry.checks {
            guard let level = Level(rawValue: check.level) else {
                throw MergeFailure(message: "\(file): case \(entry.id) has level '\(check.level)'")
            }
            let reference = RequirementReference(id: check.requirement, level: level)
            if let reason = check.notApplicable {
                checks.append(.notApplicable(reference, expected: check.expected, reason: reason))
            } else {
                guard let checkVerdict = Verdict(rawValue: check.verdict) else {
                    throw MergeFailure(message: "\(file): case \(entry.id) has a check with verdict '\(check.verdict)'")
                }
                checks.append(CheckResult(requirement: reference, expected: check.expected, observed: check.observed ?? "", verdict: checkVerdict))
            }
        }
        let evidence = Evidence(
            link: entry.evidence.link ?? "", answer: entry.evidence.answer ?? "", stderr: entry.evidence.stderr ?? "",
            exchanges: entry.evidence.exchanges.map(\.exchange))
        var result = CaseResult(
            conformanceCase: conformanceCase, verdict: verdict, checks: checks, message: entry.message, evidence: evidence,
            duration: entry.durationSeconds)
        let faults: [RunFault] = [
            entry.suiteFault.map(RunFault.suite), entry.configurationProblem.map(RunFault.configuration),
            entry.unreachableTarget.map { .unreachable(UnreachableTarget(key: $0.key, reason: $0.reason)) },
        ].compactMap { $0 }
        guard faults.count <= 1 else {
            throw MergeFailure(message: "\(file): case \(entry.id) has more than one of suite_fault, configuration_problem and unreachable_target")
        }
        result.runFault = faults.first
        result.notJudged = entry.notJudged
        result.conditionUnmet = entry.conditionUnmet == true
        return result
    }
}
