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
        // Layers, one direction: syntax -> model -> (runner + targets) and (reporting) -> command line.
        // AppFlipSystem (OS calls) and AppFlipHTTP (the wire) sit below the runner and the reference server.
        // The ground floor: bytes and text, HTML scanning, URL parts and form encoding, the lock. Depends on nothing.
        .target(name: "AppFlipBase"),
        .target(name: "AppFlipSyntax"),
        .target(name: "CAppFlipSystem"),  // prctl and fork/exec: what Swift cannot call itself (Linux)
        .target(name: "AppFlipSystem", dependencies: ["CAppFlipSystem"]),
        // SHA-256 by the system's library (libcrypto on Linux, CommonCrypto on macOS); HMAC, base64url on top.
        .target(name: "AppFlipDigest", dependencies: [.target(name: "COpenSSL", condition: .when(platforms: [.linux]))]),
        // TLS through the system's OpenSSL (libssl 3) on Linux; elsewhere the platform's HTTPS stack (see CONTRIBUTING).
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        .target(
            name: "AppFlipTLS", dependencies: ["AppFlipBase", "AppFlipSystem", .target(name: "COpenSSL", condition: .when(platforms: [.linux]))]),
        .target(name: "AppFlipHTTP", dependencies: ["AppFlipBase", "AppFlipSystem", "AppFlipTLS"]),
        // Secrets hidden: what looks like one, and every spelling of a known one replaced by its placeholder.
        .target(name: "AppFlipRedaction", dependencies: ["AppFlipBase", "AppFlipDigest"]),
        .target(name: "AppFlipModel", dependencies: ["AppFlipBase", "AppFlipRedaction", "AppFlipSyntax", "AppFlipDigest"]),
        // Every check kind (how it reads itself, its FORMAT.md row, how it judges), the registry and the judge.
        .target(name: "AppFlipChecks", dependencies: ["AppFlipBase", "AppFlipRedaction", "AppFlipModel", "AppFlipSyntax", "AppFlipDigest"]),
        // Files to model values: cases, catalog, target configuration, baseline, attestation, each read with diagnostics.
        .target(
            name: "AppFlipLoading",
            dependencies: ["AppFlipRedaction", "AppFlipBase", "AppFlipChecks", "AppFlipModel", "AppFlipSyntax", "AppFlipDigest"]),
        // The suite's case files and catalog (the Conformance/ directory), compiled in while building by
        // Plugins/EmbedSuite, which runs suite-embedder; AppFlipSuite loads them.
        .target(
            name: "AppFlipSuiteFiles", path: "Conformance", exclude: ["FORMAT.md", "results.schema.json", "examples"],
            plugins: ["EmbedSuite"]),
        .target(name: "AppFlipSuite", dependencies: ["AppFlipLoading", "AppFlipModel", "AppFlipSyntax", "AppFlipSuiteFiles", "AppFlipDigest"]),
        .executableTarget(name: "suite-embedder"),
        .plugin(name: "EmbedSuite", capability: .buildTool(), dependencies: ["suite-embedder"]),
        .target(
            name: "AppFlipRunner",
            dependencies: [
                "AppFlipChecks", "AppFlipRedaction", "AppFlipBase", "AppFlipModel", "AppFlipReference", "AppFlipSystem", "AppFlipHTTP",
                "AppFlipDigest", "AppFlipTLS",
            ]),
        .target(
            name: "AppFlipReporting",
            dependencies: ["AppFlipLoading", "AppFlipRedaction", "AppFlipBase", "AppFlipModel", "AppFlipDigest", "AppFlipSyntax"]),
        .target(name: "AppFlipReference"),
        .target(name: "AppFlipReferenceServer", dependencies: ["AppFlipReference", "AppFlipHTTP", "AppFlipDigest", "AppFlipTLS"]),
        .target(name: "AppFlipReferenceClient", dependencies: ["AppFlipReference", "AppFlipHTTP", "AppFlipDigest", "AppFlipTLS"]),
        // Turning a request (flags, environment, library calls) into targets: a partner's, or the reference.
        .target(
            name: "AppFlipSetup",
            dependencies: [
                "AppFlipLoading",
                "AppFlipModel", "AppFlipRunner", "AppFlipReference", "AppFlipReferenceServer",
                "AppFlipHTTP", "AppFlipSystem", "AppFlipTLS",
            ]),
        .target(
            name: "AppFlipCLI",
            dependencies: [
                "AppFlipLoading",
                "AppFlipRedaction",
                "AppFlipBase",
                "AppFlipModel", "AppFlipSyntax", "AppFlipDigest", "AppFlipSuite", "AppFlipSetup", "AppFlipRunner", "AppFlipReporting",
                "AppFlipReference",
                "AppFlipReferenceServer", "AppFlipReferenceClient", "AppFlipHTTP", "AppFlipSystem",
            ]),
        .target(
            name: "AppFlipConformance",
            dependencies: [
                "AppFlipBase",
                "AppFlipModel", "AppFlipSyntax", "AppFlipSuite", "AppFlipSetup", "AppFlipRunner",
                "AppFlipHTTP", "AppFlipReference", "AppFlipSystem",
            ]),
        .executableTarget(name: "appflip-conformance", dependencies: ["AppFlipCLI"]),
        .executableTarget(
            name: "appflip-reference",
            dependencies: [
                "AppFlipReference", "AppFlipReferenceServer", "AppFlipReferenceClient", "AppFlipHTTP",
                "AppFlipTLS",
            ]),

        // Test support and the deliberately broken handlers live under Tests/.
        .target(
            name: "AppFlipTestSupport",
            dependencies: [
                "AppFlipLoading",
                "AppFlipCLI", "AppFlipHTTP", "AppFlipDigest", "AppFlipModel", "AppFlipReporting", "AppFlipRunner", "AppFlipSuite",
                "AppFlipSyntax", "AppFlipSystem",
            ],
            path: "Tests/AppFlipTestSupport"),
        .executableTarget(name: "broken-handler", dependencies: ["AppFlipReference"], path: "Tests/BrokenHandler"),
        .executableTarget(
            name: "broken-android-handler", dependencies: ["AppFlipReference", "AppFlipReferenceServer"], path: "Tests/BrokenAndroidHandler"),
        .executableTarget(
            name: "broken-native-client",
            dependencies: [
                "AppFlipBase",
                "AppFlipReferenceClient", "AppFlipHTTP", "AppFlipSystem", "AppFlipTLS",
                .target(name: "COpenSSL", condition: .when(platforms: [.linux])),
            ],
            path: "Tests/BrokenNativeClient"),
        // Fast: syntax, model, judging, reporting; no executable, no subprocess (swift test --filter AppFlipUnitTests).
        .testTarget(
            name: "AppFlipUnitTests",
            dependencies: [
                "AppFlipChecks", "AppFlipLoading",
                "AppFlipRedaction",
                "AppFlipBase",
                "AppFlipTestSupport", "AppFlipModel", "AppFlipSyntax", "AppFlipReporting", "AppFlipHTTP", "AppFlipDigest",
                "AppFlipCLI",
            ],
            path: "Tests/AppFlipUnitTests",
            exclude: ["Golden"]
        ),
        // The deterministic mutation fuzzer (most of the unit tests' time once): its own target, so the unit tests stay
        // seconds (`swift test --filter AppFlipUnitTests`); `swift test` runs it with the rest.
        .testTarget(
            name: "AppFlipFuzzTests",
            dependencies: ["AppFlipLoading", "AppFlipRedaction", "AppFlipBase", "AppFlipTestSupport", "AppFlipModel", "AppFlipSyntax"],
            path: "Tests/AppFlipFuzzTests"
        ),
        // End to end: the built executables, subprocess and HTTP targets, the command line, the library, every case.
        .testTarget(
            name: "AppFlipEndToEndTests",
            dependencies: [
                "AppFlipLoading",
                "AppFlipRedaction",
                "AppFlipBase",
                "AppFlipTestSupport", "AppFlipReferenceServer", "AppFlipDigest", "AppFlipTLS", "broken-handler", "broken-android-handler",
                "broken-native-client", "appflip-reference",
                "appflip-conformance", "suite-embedder", "AppFlipSuite", "AppFlipConformance", "AppFlipCLI", "AppFlipHTTP",
                "AppFlipModel", "AppFlipReference", "AppFlipReporting", "AppFlipRunner", "AppFlipSetup", "AppFlipSyntax", "AppFlipSystem",
            ],
            path: "Tests/AppFlipEndToEndTests"
        ),
    ]
)

for target in package.targets where target.name != "CAppFlipSystem" && target.type != .plugin && target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
