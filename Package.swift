// swift-tools-version:6.0
// AppFlip Conformance: the toolchain only, no package dependencies.
import PackageDescription

let package = Package(
    name: "AppFlipConformance",
    // Swift concurrency and Swift Testing on macOS; Linux takes no platform setting.
    platforms: [.macOS(.v13)],
    products: [
        // The library partners use in their own test targets: the built-in suite, targets, results, Swift Testing glue.
        .library(name: "AppFlipConformance", targets: ["AppFlipConformance"]),
        .executable(name: "appflip-conformance", targets: ["appflip-conformance"]),
        .executable(name: "appflip-reference", targets: ["appflip-reference"]),
    ],
    targets: [
        // Layers, bottom to top; a target depends only on targets above it in this list (CONTRIBUTING, "Layers",
        // draws the arrows, and LayerTests holds them): syntax -> model -> checks -> loading -> (runner + setup) and
        // (reporting) -> command line.
        // The ground floor: bytes and text, HTML scanning, URL parts, form encoding, the lock. Depends on nothing.
        .target(name: "AppFlipBase"),
        // The case files' syntax: nodes, locations, diagnostics.
        .target(name: "AppFlipSyntax"),
        .target(name: "CAppFlipSystem"),  // prctl and fork/exec: what Swift cannot call itself (Linux)
        // TLS through the system's OpenSSL (libssl 3) on Linux; elsewhere the platform's HTTPS stack (see CONTRIBUTING).
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        // OS calls: sockets, processes, signals, host mapping.
        .target(name: "AppFlipSystem", dependencies: ["AppFlipBase", "CAppFlipSystem"]),
        // SHA-256 by the system's library (libcrypto on Linux, CommonCrypto on macOS); HMAC, base64url on top.
        .target(name: "AppFlipDigest", dependencies: [.target(name: "COpenSSL", condition: .when(platforms: [.linux]))]),
        .target(
            name: "AppFlipTLS", dependencies: ["AppFlipBase", .target(name: "COpenSSL", condition: .when(platforms: [.linux])), "AppFlipSystem"]),
        // The wire: HTTP/1.1 client and server, cookies, the sign-in browser's navigation.
        .target(name: "AppFlipHTTP", dependencies: ["AppFlipBase", "AppFlipSystem", "AppFlipTLS"]),
        // Secrets hidden: what looks like one, and every spelling of a known one replaced by its placeholder.
        .target(name: "AppFlipRedaction", dependencies: ["AppFlipBase", "AppFlipDigest"]),
        // Cases, catalog, observations, results, target and attestation types; a judging-only check protocol.
        .target(name: "AppFlipModel", dependencies: ["AppFlipBase", "AppFlipSyntax", "AppFlipDigest", "AppFlipRedaction"]),
        // Every check kind (how it reads itself, its FORMAT.md row, how it judges), the registry and the judge.
        .target(name: "AppFlipChecks", dependencies: ["AppFlipBase", "AppFlipSyntax", "AppFlipDigest", "AppFlipRedaction", "AppFlipModel"]),
        // Files to model values: cases, catalog, target configuration, baseline, attestation, with diagnostics.
        .target(
            name: "AppFlipLoading",
            dependencies: ["AppFlipBase", "AppFlipSyntax", "AppFlipSystem", "AppFlipDigest", "AppFlipRedaction", "AppFlipModel", "AppFlipChecks"]),
        // The suite's case files and catalog (the Conformance/ directory), compiled in while building by
        // Plugins/EmbedSuite, which runs suite-embedder; AppFlipSuite loads them.
        .target(
            name: "AppFlipSuiteFiles", path: "Conformance", exclude: ["FORMAT.md", "DETECTION.md", "results.schema.json", "examples"],
            plugins: ["EmbedSuite"]),
        .target(name: "AppFlipSuite", dependencies: ["AppFlipSyntax", "AppFlipDigest", "AppFlipModel", "AppFlipLoading", "AppFlipSuiteFiles"]),
        // Parses the catalog while building (AppFlipLoading) so a run reads its parsed form (AppFlipModel.CatalogForm).
        .executableTarget(name: "suite-embedder", dependencies: ["AppFlipDigest", "AppFlipModel", "AppFlipLoading"]),
        .plugin(name: "EmbedSuite", capability: .buildTool(), dependencies: ["suite-embedder"]),
        // Running cases against targets: the adapter contracts, subprocess and HTTP targets, the schedule.
        .target(
            name: "AppFlipRunner",
            dependencies: [
                "AppFlipBase", "AppFlipSystem", "AppFlipDigest", "AppFlipTLS", "AppFlipHTTP", "AppFlipRedaction", "AppFlipModel", "AppFlipChecks",
            ]),
        // The report writers: JUnit XML, Markdown, HTML, results.json and the summary, from results only.
        .target(
            name: "AppFlipReporting",
            dependencies: ["AppFlipBase", "AppFlipSystem", "AppFlipDigest", "AppFlipRedaction", "AppFlipModel"]),
        // Evidence: results.json read back, merged, derived again and compared; bundles, their tar, signatures and
        // certificates, and their verification.
        .target(
            name: "AppFlipEvidence",
            dependencies: ["AppFlipBase", "AppFlipSyntax", "AppFlipDigest", "AppFlipModel", "AppFlipLoading", "AppFlipReporting"]),
        // The reference implementations: link handler, Android activity, OAuth server, native client.
        .target(name: "AppFlipReference"),
        // The shipped defects: which program carries each, what it breaks, which requirements a run must fail.
        .target(name: "AppFlipDefects"),
        .target(name: "AppFlipReferenceServer", dependencies: ["AppFlipBase", "AppFlipDigest", "AppFlipTLS", "AppFlipHTTP", "AppFlipReference"]),
        .target(name: "AppFlipReferenceClient", dependencies: ["AppFlipBase", "AppFlipDigest", "AppFlipTLS", "AppFlipHTTP", "AppFlipReference"]),
        // Turning a request (flags, environment, library calls) into targets: a partner's, or the reference.
        .target(
            name: "AppFlipSetup",
            dependencies: [
                "AppFlipSystem", "AppFlipTLS", "AppFlipHTTP", "AppFlipModel", "AppFlipLoading", "AppFlipRunner", "AppFlipReference",
                "AppFlipReferenceServer",
            ]),
        // One run from its first case to its record (provenance, adapters' digests, the record handed to the recorders),
        // whoever asked for it: the command line's `run`, a reviewer's re-run.
        .target(
            name: "AppFlipSession",
            dependencies: [
                "AppFlipBase", "AppFlipSystem", "AppFlipDigest", "AppFlipRedaction", "AppFlipModel", "AppFlipSuite", "AppFlipRunner",
                "AppFlipReporting", "AppFlipEvidence",
            ]),
        .target(
            name: "AppFlipCLI",
            dependencies: [
                "AppFlipBase", "AppFlipSyntax", "AppFlipSystem", "AppFlipDigest", "AppFlipTLS", "AppFlipHTTP", "AppFlipRedaction", "AppFlipModel",
                "AppFlipLoading", "AppFlipSuite", "AppFlipRunner", "AppFlipReporting", "AppFlipEvidence", "AppFlipReference", "AppFlipDefects",
                "AppFlipReferenceServer", "AppFlipReferenceClient", "AppFlipSetup", "AppFlipSession",
            ]),
        .target(
            name: "AppFlipConformance",
            dependencies: [
                "AppFlipBase", "AppFlipSyntax", "AppFlipSystem", "AppFlipHTTP", "AppFlipModel", "AppFlipSuite", "AppFlipRunner", "AppFlipReference",
                "AppFlipSetup",
            ]),
        .executableTarget(name: "appflip-conformance", dependencies: ["AppFlipCLI"]),
        .executableTarget(
            name: "appflip-reference",
            dependencies: ["AppFlipTLS", "AppFlipHTTP", "AppFlipReference", "AppFlipDefects", "AppFlipReferenceServer", "AppFlipReferenceClient"]),

        // Test support and the deliberately broken handlers live under Tests/.
        .target(
            name: "AppFlipTestSupport",
            dependencies: [
                "AppFlipBase",
                "AppFlipSyntax", "AppFlipSystem", "AppFlipDigest", "AppFlipHTTP", "AppFlipModel", "AppFlipLoading", "AppFlipSuite", "AppFlipRunner",
                "AppFlipReporting", "AppFlipEvidence", "AppFlipCLI", "AppFlipDefects", "AppFlipReferenceServer",
            ], path: "Tests/AppFlipTestSupport"),
        .executableTarget(
            name: "broken-handler", dependencies: ["AppFlipReference", "AppFlipDefects", "AppFlipReferenceServer"], path: "Tests/BrokenHandler"),
        .executableTarget(
            name: "broken-android-handler", dependencies: ["AppFlipBase", "AppFlipReference", "AppFlipDefects", "AppFlipReferenceServer"],
            path: "Tests/BrokenAndroidHandler"),
        .executableTarget(
            name: "broken-native-client",
            dependencies: [
                "AppFlipBase", .target(name: "COpenSSL", condition: .when(platforms: [.linux])), "AppFlipSystem", "AppFlipTLS", "AppFlipHTTP",
                "AppFlipDefects", "AppFlipReferenceClient",
            ], path: "Tests/BrokenNativeClient"),
        // Fast: syntax, model, judging, reporting; no executable, no subprocess (swift test --filter AppFlipUnitTests).
        .testTarget(
            name: "AppFlipUnitTests",
            dependencies: [
                "AppFlipBase", "AppFlipSyntax", "AppFlipDigest", "AppFlipHTTP", "AppFlipRedaction", "AppFlipModel", "AppFlipChecks", "AppFlipLoading",
                "AppFlipReporting", "AppFlipEvidence", "AppFlipCLI", "AppFlipDefects", "AppFlipTestSupport",
            ], path: "Tests/AppFlipUnitTests", exclude: ["Golden"]),
        // The deterministic mutation fuzzer (most of the unit tests' time once): its own target, so the unit tests stay seconds (`swift test --filter AppFlipUnitTests`); `swift test` runs it with the rest.
        .testTarget(
            name: "AppFlipFuzzTests",
            dependencies: ["AppFlipBase", "AppFlipSyntax", "AppFlipRedaction", "AppFlipModel", "AppFlipLoading", "AppFlipTestSupport"],
            path: "Tests/AppFlipFuzzTests"),
        // End to end: the built executables, subprocess and HTTP targets, the command line, the library, every case.
        .testTarget(
            name: "AppFlipEndToEndTests",
            dependencies: [
                "AppFlipBase", "AppFlipSyntax", "AppFlipSystem", "AppFlipDigest", "AppFlipTLS", "AppFlipHTTP", "AppFlipRedaction", "AppFlipModel",
                "AppFlipChecks", "AppFlipLoading", "AppFlipSuite", "AppFlipRunner", "AppFlipReporting", "AppFlipEvidence", "AppFlipReference",
                "AppFlipDefects", "AppFlipReferenceServer",
                "AppFlipSetup", "AppFlipSession", "AppFlipCLI", "AppFlipConformance", "suite-embedder", "appflip-conformance", "appflip-reference",
                "AppFlipTestSupport",
                "broken-handler", "broken-android-handler", "broken-native-client",
            ], path: "Tests/AppFlipEndToEndTests"),
    ]
)

for target in package.targets where target.name != "CAppFlipSystem" && target.type != .plugin && target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
