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

    static func make(
        options: RunOptions, suite: CaseSuite, catalog: Catalog, cases: [ConformanceCase], programs: [CertificationProgram],
        arguments: [String], started: Started
    ) -> Provenance {
        let targets = options.assembly.targets
        let seed = options.assembly.configuration.seed
        let arguments = RunCommand.withSeed(arguments, seed)
        var provenance = Provenance(
            suiteVersion: SuiteVersion.current, caseDigest: suite.digest, caseFileCount: suite.files.count, seed: seed,
            target: targets.description, mode: options.mode.rawValue, jobs: options.jobs,
            filter: options.filters.isEmpty ? nil : options.filters.joined(separator: " "), startedAt: started.at,
            duration: Date().timeIntervalSince(started.clock), command: RunCommand.commandLine(arguments))
        // Which suite judged: the digests, and whether they are the suite's own (a custom suite certifies nothing).
        provenance.catalogDigest = BuiltInSuite.digest(of: catalog)
        provenance.casesBuiltIn = suite.digest == BuiltInSuite.casesDigest
        provenance.catalogBuiltIn = provenance.catalogDigest == BuiltInSuite.catalogDigest
        provenance.samples = options.samples
        provenance.certificationPrograms = programs.map(\.key)
        provenance.shard = options.shard?.description
        provenance.runArguments = arguments
        provenance.targetLabel = options.targetLabel
        provenance.targetVersion = options.targetVersion
        // Which build judged the target: the executable was hashed while the cases ran.
        provenance.executableSHA256 = RunIdentity.executableDigest.value()
        provenance.adapterFiles = AdapterDigests.files(of: targets, pinned: options.adapterFiles, ownDigest: provenance.executableSHA256)
        provenance.runBy = AdapterDigests.runBy(given: options.runBy)
        provenance.host = Platform.hostName
        provenance.sourceCommit = SuiteVersion.sourceCommit
        provenance.platform = RunIdentity.platform
        provenance.toolchain = RunIdentity.toolchain
        provenance.transport = TransportSurvey.survey(cases, targets: targets, timeout: options.timeout)
        // The first adapter's, in the contracts' order, that starts processes.
        if let startup = targets.contracts.all.lazy.compactMap({ targets.adapters[$0.key]?.startupReport(timeout: options.timeout) }).first {
            provenance.handlerStartup = startup.policy
            provenance.handlerStartupMeasured = startup.measured
        }
        return provenance
    }
}
