import AppFlipBase
import AppFlipModel
import AppFlipReporting
import Foundation

/// `verify --rerun`: the reviewer's re-run. The bundle's own cases and catalog (for a certification, the suite's own,
/// which `verify` has just matched to this binary's) run again with its seed against the target it records, and the
/// verdicts are compared case by case. What the run needed and the bundle does not hold comes from where it came from
/// the first time: the adapters at their recorded paths (refused when their SHA-256 differs, before anything runs),
/// the configuration file at its path, the secrets from the same environment variables; never from the bundle.
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

    /// The options of the recorded command line the re-run sets itself or cannot use: where the suite and the
    /// reports come from and go, the seed (the manifest's), the selection by an earlier run's files or a shard (the
    /// bundle's case list selects instead), known failures (verdicts are compared before any baseline), and what
    /// only the console or the evidence of the first run needed.
    static let replacedOptions = [
        "--cases", "--catalog", "--bundle", "--reports", "--summary", "--attest", "--sign-key", "--seed",
        "--rerun-failed", "--shard", "--baseline", "--color",
    ]
    static let replacedFlags: Set<String> = ["-q", "--quiet", "-v", "--verbose"]

    /// Re-runs the bundle's cases; the run's own console (in `--quiet` form: its verdict and the problems that stopped
    /// cases) goes to standard error, its reports to `reports` (a temporary directory when nil, removed after).
    static func rerun(_ verification: EvidenceBundle.Verification, reports: String?, console: Console) -> Outcome {
        guard let document = verification.document else { return Outcome(refusal: "results.json cannot be read, so there is nothing to compare") }
        guard let recorded = verification.manifest.arguments else {
            return Outcome(refusal: "the bundle records no command line (a bundle of an earlier suite version)")
        }
        if let problem = adapterProblem(document) { return Outcome(refusal: problem) }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-rerun-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        do {
            try extractSuite(verification.entries, into: scratch)
        } catch {
            return Outcome(refusal: "the bundle's case files cannot be written to \(scratch): \(error.localizedDescription)")
        }
        let reportDirectory = reports ?? scratch + "/reports"
        let arguments = arguments(recorded, seed: verification.manifest.seed, suite: scratch, reports: reportDirectory)
        console.err(
            "re-running \(document.cases.count) case\(document.cases.count == 1 ? "" : "s"): "
                + "\(RunCommand.commandLine(arguments))")
        let status = RunCommand.main(
            arguments, console: Console(out: console.writeErr, err: console.writeErr),
            only: Set(document.cases.map(\.id)))
        let rerun: ResultsDocument
        do {
            rerun = try ResultsDocument.load(run: reportDirectory).document
        } catch {
            return Outcome(refusal: "the re-run wrote no results (it exited \(status); its messages are above): \(error.message)")
        }
        return compare(recorded: document, rerun: rerun)
    }

    /// The recorded command line made the re-run's: the replaced options out, the bundle's suite (unless the run
    /// certified: a certification takes the suite built into the binary, which `verify` matched), the seed and the
    /// reports in, before any adapter command.
    package static func arguments(_ recorded: [String], seed: UInt64, suite directory: String, reports: String) -> [String] {
        var words = recorded
        for option in replacedOptions { words = CommandLineText.removing(option, from: words) }
        let end = words.firstIndex(of: "--") ?? words.endIndex
        words = words[..<end].filter { !replacedFlags.contains($0) } + words[end...]
        let suite =
            CommandLineText.certifies(words) ? [] : ["--cases", directory + "/cases", "--catalog", directory + "/" + EvidenceBundle.catalogPath]
        words.insert(
            contentsOf: suite + ["--seed", String(seed), "--reports", reports, "--quiet", "--color", "never"],
            at: words.firstIndex(of: "--") ?? words.endIndex)
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

    /// Why an adapter the run recorded cannot be re-run as it was: a different file at its path now, or none.
    static func adapterProblem(_ document: ResultsDocument) -> String? {
        for adapter in document.run.adapters ?? [] {
            guard let recorded = adapter.sha256 else {
                return
                    "the run could not hash its \(adapter.role) \(adapter.path) (\(adapter.problem ?? "unreadable")), so a re-run cannot show it is the same"
            }
            let now: String?
            let own = Bundle.main.executablePath.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
            if URL(fileURLWithPath: adapter.path).resolvingSymlinksInPath().path == own {
                // The suite's own reference handler then and now: this build's, which `verify` holds to the suite.
                if recorded == document.run.executableSha256 { continue }
                now = RunIdentity.executableDigest.value()
            } else if case .success(let digest) = FileDigest.sha256(atPath: adapter.path, limit: AdapterDigests.limit) {
                now = digest
            } else {
                now = nil
            }
            guard let now else { return "the \(adapter.role) \(adapter.path) cannot be read here: it must be where the run had it" }
            if now != recorded {
                return "the \(adapter.role) \(adapter.path) hashes sha256 \(now), not the \(recorded) the bundle records: "
                    + "another program would be judged, so nothing was re-run"
            }
        }
        return nil
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
