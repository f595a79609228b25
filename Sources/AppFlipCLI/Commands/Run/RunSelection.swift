import AppFlipEvidence
import AppFlipModel
import AppFlipReporting

/// Which cases `run` executes: its profiles and filters or its certification programs, then an earlier run's
/// failures (`--rerun-failed`), its shard and its sample count. What narrows the run to nothing is said here.
enum RunSelection {
    enum Outcome {
        case cases([ConformanceCase])
        /// Nothing to run: the status to exit with (said on the console already).
        case exit(Int32)
    }

    static func select(from suite: CaseSuite, options: RunOptions, programs: [CertificationProgram], console: Console) -> Outcome {
        let filter = CaseFilter(patterns: options.filters)
        var selected = CertificationSelection.cases(suite.cases, profiles: options.profiles, filter: filter, programs: programs)
        if let directory = options.rerunFailed {
            guard let failed = failedCases(in: directory, console: console) else { return .exit(ExitStatus.usage.rawValue) }
            let known = Set(suite.cases.flatMap { [$0.id] + $0.formerly })
            let gone = failed.subtracting(known)
            if !gone.isEmpty {
                console.err(
                    "note: \(gone.count) case\(gone.count == 1 ? "" : "s") that failed there no longer exist: \(gone.sorted().prefix(5).joined(separator: ", "))"
                )
            }
            selected = selected.filter { conformanceCase in failed.contains { conformanceCase.isNamed($0) } }
        }
        if let only = options.only { selected = selected.filter { only.contains($0.id) } }
        if let shard = options.shard {
            selected = selected.filter { shard.contains($0.id) }
            if selected.isEmpty {
                console.err("note: shard \(shard) selects none of the cases; nothing to run")
                return .exit(0)
            }
        }
        if let samples = options.samples {
            selected = selected.map { $0.sampled(samples) }
            if let problem = expansionProblem(selected) {
                console.err("error: --samples \(samples): \(problem)")
                return .exit(ExitStatus.usage.rawValue)
            }
        }
        guard !selected.isEmpty else {
            console.err(
                "error: no case matches the profiles (\(options.profiles.map(\.rawValue).joined(separator: ", ")))"
                    + (options.filters.isEmpty ? "" : " and --filter \(options.filters.joined(separator: " --filter "))"))
            return .exit(ExitStatus.usage.rawValue)
        }
        return .cases(selected)
    }

    /// The IDs of the cases that failed or ended in error in the run whose reports are in `directory` (or whose
    /// results.json is given), known failures included; nil (after saying why) when there is nothing to re-run.
    private static func failedCases(in path: String, console: Console) -> Set<String>? {
        do {
            let (document, file) = try ResultsDocument.load(run: path, suite: SuiteLoading.builtIn(matching:))
            let failed = Set(document.cases.filter { $0.verdict == "fail" || $0.verdict == "error" }.map(\.id))
            guard !failed.isEmpty else {
                console.err("error: --rerun-failed: no case failed or ended in error in \(file); nothing to re-run")
                return nil
            }
            return failed
        } catch {
            console.err("error: --rerun-failed: \(error.message) (give a reports directory of an earlier run, or its results.json)")
            return nil
        }
    }

    /// Why more samples would expand `${repeat}` variables past the load-time bounds, or nil when they do not.
    private static func expansionProblem(_ cases: [ConformanceCase]) -> String? {
        if let large = cases.first(where: { $0.repeatedBytes > ConformanceCase.maximumExpansion }) {
            return
                "case \(large.id) would expand its ${repeat} variables to \(large.repeatedBytes) bytes (at most \(ConformanceCase.maximumExpansion))"
        }
        let total = cases.reduce(0) { $0 + $1.repeatedBytes }
        return total > ConformanceCase.maximumRunExpansion
            ? "the run would expand ${repeat} variables to \(total) bytes (at most \(ConformanceCase.maximumRunExpansion))" : nil
    }
}
