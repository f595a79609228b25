import AppFlipBase
import AppFlipEvidence
import AppFlipHTTP
import AppFlipModel
import AppFlipRedaction
import AppFlipReporting
import AppFlipRunner
import AppFlipSession
import Foundation

/// `verify --rerun`: the reviewer's re-run, on the reviewer's terms. The target is the one the reviewer names on the
/// command line (the same options as `run`: adapters, `--config`, `--handler-url`, `--handler-env`, `--timeout`); the
/// bundle gives only data the suite reads: which cases to run (by ID) and, for an ordinary run, its case files and
/// catalog. No program, argument, environment variable, URL, file path or time limit is taken from it. Before the
/// first case, the adapter files the reviewer's command names are hashed and held against the digests the bundle
/// records, role by role: any file the record does not hold with the same SHA-256, or a recorded one the command does
/// not name, and nothing runs. The seed is fresh unless `--seed` is given: verdicts must reproduce, not values.
package enum BundleRerun {
    /// One case whose re-run verdict is not the recorded one.
    struct Difference: Equatable {
        var id: String
        var recorded: String
        /// Nil when the re-run did not run the case.
        var now: String?
    }

    /// What the re-run found: the cases compared, those that differ, and why it could not run (then nothing was
    /// compared).
    struct Outcome {
        var compared = 0
        var differences: [Difference] = []
        var refusal: String?

        var reproduced: Bool { refusal == nil && differences.isEmpty && compared > 0 }
    }

    /// The overall bound of a re-run when the reviewer gives no `--time-limit`: an hour, after which no case starts.
    static let defaultTimeLimit = 3600

    /// Re-runs the bundle's cases against the target `reviewer` names (run's target options, and any adapter command
    /// after `--`); the run's own console (in `--quiet` form) goes to standard error, its reports to `reports` (a
    /// temporary directory when nil, removed after). What is about to run is printed before the first case.
    static func rerun(_ verification: EvidenceBundle.Verification, reviewer: [String], reports: String?, console: Console) -> Outcome {
        guard let document = verification.document else { return Outcome(refusal: "results.json cannot be read, so there is nothing to compare") }
        guard !document.cases.isEmpty else { return Outcome(refusal: "the bundle records no case, so there is nothing to re-run") }
        guard !reviewer.isEmpty else {
            return Outcome(
                refusal: "name the target to re-run against, with the target options of `run` (`help verify` lists them; "
                    + "an adapter command goes after --): nothing is taken from the bundle")
        }
        if let changed = (document.run.adapters ?? []).first(where: { $0.sha256Before != nil && $0.sha256Before != $0.sha256 }) {
            return Outcome(
                refusal: "the bundle records that its \(changed.role) \(changed.path) changed while its cases ran: "
                    + "no single program was tested, so there is none to re-run")
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-rerun-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let certification = document.run.certification == true
        if !certification {
            do {
                try extractSuite(verification.entries, into: scratch)
            } catch {
                return Outcome(refusal: "the bundle's case files cannot be written to \(scratch): \(error.localizedDescription)")
            }
        }
        let reportDirectory = reports ?? scratch + "/reports"
        let arguments = arguments(reviewer, recorded: document, suite: scratch, reports: reportDirectory)
        var refusal: String?
        let status = RunCommand.main(
            arguments, console: Console(out: console.writeErr, err: console.writeErr), only: Set(document.cases.map(\.id))
        ) { preflight in
            let reviewerFiles = AdapterDigests.files(
                of: preflight.targets, pinned: preflight.options.adapterFiles, ownDigest: RunIdentity.executableDigest.value())
            let own = RunIdentity.executableDigest.value()
            if let problem = adapterProblem(recorded: document.run, reviewer: reviewerFiles, ownDigest: own) {
                refusal = problem
                return false
            }
            for line in plan(preflight, files: reviewerFiles, recorded: document, ownDigest: own) { console.out(line) }
            return true
        }
        if let refusal { return Outcome(refusal: refusal) }
        let rerun: ResultsDocument
        do {
            rerun = try ResultsDocument.load(run: reportDirectory).document
        } catch {
            return Outcome(refusal: "the re-run wrote no results (it exited \(status); its messages are above): \(error.message)")
        }
        return compare(recorded: document, rerun: rerun)
    }

    /// The re-run's command line: the reviewer's words, then what selects the bundle's cases (its certification
    /// programs, or its own case files and catalog written to `suite` and the profiles of its cases), the time limit
    /// when the reviewer gave none, and where the reports go, all before any adapter command. The programs and
    /// profiles go as `--name=value`, so no recorded text can stand for an option; `run` refuses names it does not know.
    package static func arguments(_ reviewer: [String], recorded: ResultsDocument, suite directory: String, reports: String) -> [String] {
        var words = reviewer
        var added: [String]
        if recorded.run.certification == true {
            let programs = recorded.run.certificationPrograms ?? []
            added = [programs.isEmpty ? "--certification" : "--certification=" + programs.joined(separator: ",")]
        } else {
            var profiles: [String] = []
            for entry in recorded.cases where !profiles.contains(entry.profile) { profiles.append(entry.profile) }
            added = ["--cases", directory + "/cases", "--catalog", directory + "/" + EvidenceBundle.catalogPath] + profiles.map { "--profile=" + $0 }
        }
        let end = words.firstIndex(of: "--") ?? words.endIndex
        if !words[..<end].contains(where: { $0 == "--time-limit" || $0.hasPrefix("--time-limit=") }) {
            added += ["--time-limit", String(defaultTimeLimit)]
        }
        added += ["--reports", reports, "--quiet", "--color", "never"]
        words.insert(contentsOf: added, at: end)
        return words
    }

    /// The recorded verdicts against the re-run's, case by case in the recorded order.
    static func compare(recorded: ResultsDocument, rerun: ResultsDocument) -> Outcome {
        let now = Dictionary(rerun.cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var outcome = Outcome()
        for entry in recorded.cases {
            outcome.compared += 1
            let recordedVerdict = verdict(entry)
            let current = now[entry.id].map(verdict)
            if current != recordedVerdict { outcome.differences.append(Difference(id: entry.id, recorded: recordedVerdict, now: current)) }
        }
        return outcome
    }

    /// A case's verdict as the comparison reads it: the verdict and, when it failed or warned, the requirements that
    /// made it so (a case that fails for another reason did not reproduce).
    static func verdict(_ entry: ResultsDocument.CaseEntry) -> String {
        let blamed = entry.checks.filter { $0.verdict == "fail" || $0.verdict == "warn" }.map { "\($0.requirement) \($0.verdict)" }
        let requirements = Array(Set(blamed)).sorted()
        return entry.verdict + (requirements.isEmpty || entry.verdict == "pass" ? "" : " (\(requirements.joined(separator: ", ")))")
    }

    /// Why the adapter files the reviewer's command names are not the ones the bundle records, or nil when they are,
    /// role by role and SHA-256 by SHA-256 (paths may differ between machines; the bytes may not). The suite's own
    /// reference adapters (this executable, and in the record the executable that ran) match each other by role.
    static func adapterProblem(recorded run: ResultsDocument.Run, reviewer: [Provenance.AdapterFile], ownDigest: String?) -> String? {
        var unmatched = run.adapters ?? []
        let recordedOwn = run.executableSha256
        for file in reviewer {
            guard let digest = file.sha256 else {
                return "your \(file.role) \(file.path) cannot be hashed (\(file.problem ?? "unreadable")), so it cannot be shown to be "
                    + "the program the bundle records"
            }
            let isOwn = digest == ownDigest
            if let index = unmatched.firstIndex(where: { entry in
                entry.role == file.role && (entry.sha256 == digest || (isOwn && entry.sha256 != nil && entry.sha256 == recordedOwn))
            }) {
                unmatched.remove(at: index)
                continue
            }
            let sameRole = (run.adapters ?? []).filter { $0.role == file.role }
            return "your \(file.role) \(file.path) hashes sha256 \(digest), which the bundle does not record for its \(file.role) ("
                + (sameRole.isEmpty ? "it records none" : "it records " + sameRole.map(\.file.summary).joined(separator: "; "))
                + "): another program would be judged, so nothing was re-run"
        }
        if let missing = unmatched.first {
            let what = missing.role.hasSuffix(" file") ? missing.role : missing.role + " file"
            return "the bundle records the \(what) \(missing.path) "
                + (missing.sha256.map { "(sha256 \($0))" } ?? "(not hashed: \(missing.problem ?? "unreadable"))")
                + ", and your command names no file with that digest: name the same adapter, or nothing is re-run"
        }
        return nil
    }

    /// What is about to run, printed before the first case: the cases, the programs, each adapter file with its
    /// digest, each URL (and the recorded one where the reviewer named another), and the bounds.
    private static func plan(
        _ preflight: RunCommand.Preflight, files: [Provenance.AdapterFile], recorded: ResultsDocument, ownDigest: String?
    ) -> [ConsoleText] {
        let redactor = Redactor(secrets: preflight.targets.secrets)
        let options = preflight.options
        var lines: [ConsoleText] = ["re-run plan (the target you named; nothing of it comes from the bundle):"]
        let programs =
            recorded.run.certification == true ? " of the certification " + (recorded.run.certificationPrograms ?? []).joined(separator: ", ") : ""
        lines.append("  cases: \(preflight.cases.count) of the \(recorded.cases.count) the bundle records\(programs)")
        for file in files {
            let own = file.sha256 != nil && file.sha256 == ownDigest ? " (the suite's own reference adapter, this build)" : " (as the bundle records)"
            lines.append("  \(redactor.redact(file.summary))\(own)")
        }
        if files.isEmpty { lines.append("  adapters: none started (the bundle records none either)") }
        let recordedText = redactor.redact(recorded.run.target + " " + (recorded.run.arguments ?? []).joined(separator: " "))
        for (endpoint, url) in preflight.targets.endpoints.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let shown = redactor.redact(url)
            let same = HTTPOrigin.split(url).map { recordedText.contains("://" + $0.origin.host) } ?? false
            lines.append(
                "  \(endpoint.rawValue): \(shown)" + (same ? "" : " (you named it: the bundle's run names another host)"))
        }
        let limit = options.timeLimit.map { "\(Int($0)) s in all" } ?? "none"
        lines.append(
            "  seed \(options.assembly.configuration.seed), per-case timeout \(Self.seconds(options.timeout)), time limit \(limit), "
                + "jobs \(options.jobs)")
        return lines
    }

    private static func seconds(_ value: Double) -> String {
        value.rounded() == value ? "\(Int(value)) s" : "\(value) s"
    }

    /// The bundle's case files and catalog, written under `directory` as the run read them.
    private static func extractSuite(_ entries: [TarArchive.Entry], into directory: String) throws {
        for entry in entries where entry.path.hasPrefix("cases/") || entry.path == EvidenceBundle.catalogPath {
            // The archive reader refuses absolute paths; a `..` component would still leave the directory.
            guard !entry.path.split(separator: "/").contains("..") else { continue }
            let url = URL(fileURLWithPath: directory).appendingPathComponent(entry.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(entry.bytes).write(to: url)
        }
    }
}
