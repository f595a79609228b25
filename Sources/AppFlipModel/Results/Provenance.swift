import AppFlipBase

/// Where a run's results come from, so a reviewer can trust and reproduce them.
package struct Provenance: Sendable, Hashable {
    package var suiteVersion: String
    package var caseDigest: String
    package var caseFileCount: Int
    /// The SHA-256 of the requirement catalog's bytes, when known (results of 0.3.0 and earlier do not say).
    package var catalogDigest: String?
    /// Whether the case files and the catalog are the ones built into the suite that ran (their digests equal), or
    /// nil when not known. A run of other files is no certification, and every report says so first.
    package var casesBuiltIn: Bool?
    package var catalogBuiltIn: Bool?
    /// Other case files or another catalog than the suite's own (known to be): the report's first line says it.
    package var customSuite: Bool { casesBuiltIn == false || catalogBuiltIn == false }
    package var seed: UInt64
    package var target: String
    package var mode: String
    package var jobs: Int
    package var filter: String?
    /// `--samples N`, when given: how many values every sampling check judged instead of each case's own count.
    package var samples: Int?
    /// ISO 8601 UTC, e.g. `2026-11-22T05:34:37Z`.
    package var startedAt: String
    package var duration: Double
    package var command: String
    /// `--shard I/N`, when the run was one shard of a larger run (merged with `merge`).
    package var shard: String?
    /// The programs a certification run (`--certification`) judged, by key, in the catalog's order; empty when the
    /// run was no certification. A certification takes no baseline, no filter, and judges every case of its programs.
    package var certificationPrograms: [String] = []
    /// A certification run.
    package var certification: Bool { !certificationPrograms.isEmpty }
    /// The `run` arguments behind `command` (seed explicit), when the run can be narrowed to one case.
    package var runArguments: [String]?
    /// How the tool was started (`swift run -c release appflip-conformance`, a path): the start of `command`.
    package var program: String { CommandLineText.program(of: command) }
    /// For each https origin the run used, the TLS version and suite the server picks for a current client;
    /// empty when every endpoint was plain http.
    package var transport: [String] = []
    /// How the link handler is started and what its start-up allowance is (a subprocess target only).
    package var handlerStartup: String?
    /// The measured start-up times (not in reproducible reports: they vary from run to run).
    package var handlerStartupMeasured: String?
    /// The SHA-256 of the executable that ran (hex), when it could be read: which build judged the target.
    package var executableSHA256: String?
    /// The git commit the suite was built from, when it was built from a checkout.
    package var sourceCommit: String?
    /// The operating system and processor the suite ran on, and the Swift toolchain it was built with.
    package var platform: String?
    package var toolchain: String?
    /// What the person running the suite calls the deployment or app version under test (`--target-label`, or
    /// `target_label` in the configuration): recorded as given, judged by nothing.
    package var targetLabel: String?
    /// The partner's build under test (`--target-version`, `target_version`).
    package var targetVersion: String?
    /// The adapter programs the run started, and the files among their arguments (a script), each with its SHA-256:
    /// what was tested, beside which suite tested it.
    package var adapterFiles: [AdapterFile] = []
    /// Who ran it: `--operator`, or the CI job (its URL, where the CI gives one), or the user; and on which host. Not
    /// in reproducible reports (they differ from machine to machine).
    package var runBy: String?
    package var host: String?

    /// One file of an adapter: its role (its contract's, e.g. `link handler`), its path as given and
    /// resolved, and its SHA-256 (nil with why when it could not be read).
    package struct AdapterFile: Sendable, Hashable {
        package var role: String
        package var path: String
        /// Taken after the last case.
        package var sha256: String?
        package var problem: String?
        /// Taken before the first case, when it differs from `sha256`: the file changed while the cases ran (an
        /// adapter that copies another program over itself), so no single program was tested.
        package var sha256Before: String?

        /// The file is one of the suite's own reference adapters (its executable, or the `appflip-reference` beside
        /// it), by digest: the suite's stand-in for an app, whatever label the run was given.
        package var suiteReference = false

        /// Whether the file changed while the cases ran.
        package var changed: Bool { sha256Before != nil && sha256Before != sha256 }

        package init(role: String, path: String, sha256: String?, problem: String? = nil) {
            self.role = role
            self.path = path
            self.sha256 = sha256
            self.problem = problem
        }

        /// `link handler: /usr/bin/python3 sha256 4f…` as report.md and `verify` show it.
        package var summary: String {
            "\(role): \(path) " + (sha256.map { "sha256 \($0)" } ?? "(not hashed: \(problem ?? "unreadable"))")
                + (suiteReference ? " (the suite's own reference adapter, not a partner's app)" : "")
                + (changed ? " CHANGED DURING THE RUN: sha256 \(sha256Before ?? "") before the first case" : "")
        }
    }

    package init(
        suiteVersion: String, caseDigest: String, caseFileCount: Int, seed: UInt64, target: String, mode: String,
        jobs: Int, filter: String?, startedAt: String, duration: Double, command: String
    ) {
        self.suiteVersion = suiteVersion
        self.caseDigest = caseDigest
        self.caseFileCount = caseFileCount
        self.seed = seed
        self.target = target
        self.mode = mode
        self.jobs = jobs
        self.filter = filter
        self.startedAt = startedAt
        self.duration = duration
        self.command = command
    }

    /// The command that runs only the case `id`, with everything else as in this run; nil when the run was not
    /// a `run` (validate-url).
    package func command(onlyCase id: String) -> String? {
        runArguments.map { CommandLineText.quoted(CommandLineText.narrowed($0, toCase: id), subcommand: "run", program: program) }
    }
}
