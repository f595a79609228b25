import AppFlipCLI
import AppFlipLoading
import AppFlipModel
import AppFlipRunner
import AppFlipSuite
import Foundation

/// Runs the project's own cases through the library, as the command does, for end-to-end tests.
package enum SuiteRun {
    /// The catalog and every case in `Conformance/`, read once for the whole test process: loading them (parsing
    /// every case file, unoptimized) was a quarter of `swift test`'s CPU when each test read them again. A test that
    /// needs the loader itself to run calls `CatalogLoader` and `CaseLoader` directly.
    package static func load() throws -> (Catalog, CaseSuite) {
        try loaded.get()
    }

    private static let loaded: Result<(Catalog, CaseSuite), any Error> = Result {
        let catalog = try CatalogLoader.load(path: PackageRoot.catalog)
        let suite = try CaseLoader.load(from: PackageRoot.cases, catalog: catalog)
        return (catalog, suite)
    }

    /// The configuration the reference and the broken handlers expect.
    package static let configuration = RunConfiguration(
        link: "https://app.example/flip", clientID: "google-client", seed: 7,
        projectID: "reference-project")

    /// Runs `cases` (default: every app-link case) against a link handler.
    package static func run(
        _ target: any ExchangeTarget, cases selected: [ConformanceCase]? = nil, timeout: Double = 5,
        jobs: Int = 2
    ) throws -> RunResult {
        let cases = try selected ?? load().1.cases.filter { $0.profile == .appLink }
        return try run(TargetUnderTest(adapters: [.linkHandler: target]), cases: cases, timeout: timeout, jobs: jobs)
    }

    /// Runs `cases` against `targets`, with `configuration` (default: the one the reference expects).
    package static func run(
        _ targets: TargetUnderTest, cases: [ConformanceCase], configuration: RunConfiguration = SuiteRun.configuration,
        timeout: Double = 5, jobs: Int = 2, judgesApart: Bool = true
    ) throws -> RunResult {
        let (catalog, suite) = try load()
        var runner = Runner(configuration: configuration, timeout: timeout, jobs: jobs)
        runner.judgesApart = judgesApart
        let results = runner.run(cases, targets: targets)
        let provenance = Provenance(
            suiteVersion: SuiteVersion.current, caseDigest: suite.digest, caseFileCount: suite.files.count,
            seed: configuration.seed, target: targets.description, mode: "test", jobs: jobs, filter: nil,
            startedAt: "2026-01-01T00:00:00Z", duration: 0, command: "swift test")
        return RunResult(results: results, catalog: catalog, provenance: provenance)
    }
}

extension ConformanceCase {
    /// Whether the case needs nothing of the configuration beyond what `SuiteRun.configuration` gives (the project
    /// ID, which every authorization request and code exchange needs).
    package var needsNothingSpecial: Bool { needs.allSatisfy { $0 == .projectID } }
}
