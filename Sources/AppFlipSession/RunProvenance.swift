import AppFlipModel
import AppFlipReporting
import AppFlipRunner
import AppFlipSuite
import AppFlipSystem
import Foundation

/// What a run records about itself for the reviewer: the suite and its cases, the seed, the command to reproduce it,
/// the build and the machine, who ran it, the adapters' digests, the transport and the handler's start-up.
enum RunProvenance {
    struct Started {
        var at: String
        var clock: Date
    }

    /// Which suite judged: the catalog's digest, and whether the cases and the catalog are the suite's own (a custom
    /// suite certifies nothing).
    static func recordJudgingSuite(_ suite: CaseSuite, catalog: Catalog, into provenance: inout Provenance) {
        provenance.catalogDigest = BuiltInSuite.digest(of: catalog)
        provenance.casesBuiltIn = suite.digest == BuiltInSuite.casesDigest
        provenance.catalogBuiltIn = provenance.catalogDigest == BuiltInSuite.catalogDigest
    }

    static func make(
        _ run: RunDescription, suite: CaseSuite, catalog: Catalog, cases: [ConformanceCase], programs: [CertificationProgram],
        started: Started
    ) -> Provenance {
        let targets = run.targets
        var provenance = Provenance(
            suiteVersion: SuiteVersion.current, caseDigest: suite.digest, caseFileCount: suite.files.count, seed: run.configuration.seed,
            target: targets.description, mode: run.mode, jobs: run.jobs, filter: run.filters.isEmpty ? nil : run.filters.joined(separator: " "),
            startedAt: started.at, duration: Date().timeIntervalSince(started.clock), command: run.command)
        recordJudgingSuite(suite, catalog: catalog, into: &provenance)
        provenance.samples = run.samples
        provenance.certificationPrograms = programs.map(\.key)
        provenance.shard = run.shard
        provenance.runArguments = run.arguments
        provenance.targetLabel = run.targetLabel
        provenance.targetVersion = run.targetVersion
        // Which build judged the target: the executable was hashed while the cases ran.
        provenance.executableSHA256 = RunIdentity.executableDigest.value()
        provenance.adapterFiles = AdapterDigests.files(of: targets, pinned: run.pinnedAdapterFiles, ownDigest: provenance.executableSHA256)
        provenance.runBy = AdapterDigests.runBy(given: run.runBy)
        provenance.host = Platform.hostName
        provenance.sourceCommit = SuiteVersion.sourceCommit
        provenance.platform = RunIdentity.platform
        provenance.toolchain = RunIdentity.toolchain
        provenance.transport = TransportSurvey.survey(cases, targets: targets, timeout: run.timeout)
        // The first adapter's, in the contracts' order, that starts processes.
        if let startup = targets.contracts.all.lazy.compactMap({ targets.adapters[$0.key]?.startupReport(timeout: run.timeout) }).first {
            provenance.handlerStartup = startup.policy
            provenance.handlerStartupMeasured = startup.measured
        }
        return provenance
    }
}
