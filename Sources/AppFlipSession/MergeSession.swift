import AppFlipEvidence
import AppFlipModel
import AppFlipReporting

/// Shards of one run put back together as one run's record, which the recorders then write as any run's: held to the
/// cases and catalog at hand (this binary's view of which suite judged), with the baseline applied to the merged
/// results (an entry may fail in one shard and pass in another). Whoever asked for the merge reads the shards and
/// picks the recorders; this is the same for all of them.
package struct MergeSession {
    package var suite: CaseSuite
    package var catalog: Catalog
    package var baseline: Baseline?
    /// The day a baseline entry expires against, `2026-12-05`.
    package var today: String

    package init(suite: CaseSuite, catalog: Catalog, baseline: Baseline?, today: String) {
        self.suite = suite
        self.catalog = catalog
        self.baseline = baseline
        self.today = today
    }

    /// The shards as one run; `selection` gives the cases a shard's recorded arguments select before `--shard`
    /// (`ResultsDocument.merge`). Throws why they do not merge.
    package func merged(
        _ shards: [(document: ResultsDocument, file: String)], selection: (ResultsDocument) -> Set<String>?
    ) throws(ResultsDocument.MergeFailure) -> RunResult {
        var run = try ResultsDocument.merge(shards, suite: suite, catalog: catalog, selection: selection)
        RunProvenance.recordJudgingSuite(suite, catalog: catalog, into: &run.provenance)
        if let baseline { run.apply(baseline, today: today) }
        return run
    }
}
