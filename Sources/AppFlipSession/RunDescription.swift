import AppFlipModel
import AppFlipRunner

/// What a run is, as its provenance records it and its session needs it, whoever asked for it (the command line's
/// options, a reviewer's re-run): the targets and their configuration, how cases are run, how they were selected,
/// and how the run names itself and its adapters.
package struct RunDescription: Sendable {
    package var targets: TargetUnderTest
    package var configuration: RunConfiguration
    /// The profiles the run covers.
    package var profiles: [Profile]
    /// How handlers run (`persistent`, `one-shot`).
    package var mode: String
    package var jobs: Int
    /// Seconds a case's step may take.
    package var timeout: Double
    /// Whether cases that wait out a declared lifetime run too.
    package var includeSlow: Bool
    /// Seconds after which no case starts (`--time-limit`).
    package var timeLimit: Double?
    /// The `--filter` patterns, as given.
    package var filters: [String]
    package var samples: Int?
    /// `I/N`, when the run is one shard of several.
    package var shard: String?
    /// The arguments that reproduce the run (its seed explicit), and the command line a reviewer would retype.
    package var arguments: [String]
    package var command: String
    package var targetLabel: String?
    package var targetVersion: String?
    /// Files the adapters depend on that no command line names (`--adapter-file`).
    package var pinnedAdapterFiles: [String]
    /// Who ran it, as given (`--operator`); nil: read from the CI job or the user (`AdapterDigests.runBy`).
    package var runBy: String?

    package init(
        targets: TargetUnderTest, configuration: RunConfiguration, profiles: [Profile], mode: String, jobs: Int, timeout: Double,
        includeSlow: Bool, timeLimit: Double?, filters: [String], samples: Int?, shard: String?, arguments: [String], command: String,
        targetLabel: String?, targetVersion: String?, pinnedAdapterFiles: [String], runBy: String?
    ) {
        self.targets = targets
        self.configuration = configuration
        self.profiles = profiles
        self.mode = mode
        self.jobs = jobs
        self.timeout = timeout
        self.includeSlow = includeSlow
        self.timeLimit = timeLimit
        self.filters = filters
        self.samples = samples
        self.shard = shard
        self.arguments = arguments
        self.command = command
        self.targetLabel = targetLabel
        self.targetVersion = targetVersion
        self.pinnedAdapterFiles = pinnedAdapterFiles
        self.runBy = runBy
    }
}
