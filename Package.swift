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
        .target(name: "AppFlipSyntax"),
        .target(name: "CAppFlipSystem"),  // prctl and fork/exec: what Swift cannot call itself (Linux)
        .target(name: "AppFlipSystem", dependencies: ["CAppFlipSystem"]),
        // SHA-256 by the system's library (libcrypto on Linux, CommonCrypto on macOS); HMAC, base64url on top.
        .target(name: "AppFlipDigest", dependencies: [.target(name: "COpenSSL", condition: .when(platforms: [.linux]))]),
        // TLS through the system's OpenSSL (libssl 3) on Linux; elsewhere the platform's HTTPS stack (see CONTRIBUTING).
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        .target(name: "AppFlipTLS", dependencies: ["AppFlipSystem", .target(name: "COpenSSL", condition: .when(platforms: [.linux]))]),
        .target(name: "AppFlipHTTP", dependencies: ["AppFlipSystem", "AppFlipTLS"]),
        .target(name: "AppFlipModel", dependencies: ["AppFlipSyntax", "AppFlipDigest"]),
        // The suite's case files and catalog (the Conformance/ directory), compiled in while building by
        // Plugins/EmbedSuite, which runs suite-embedder; AppFlipSuite loads them.
        .target(
            name: "AppFlipSuiteFiles", path: "Conformance", exclude: ["FORMAT.md", "results.schema.json", "examples"],
            plugins: ["EmbedSuite"]),
        .target(name: "AppFlipSuite", dependencies: ["AppFlipModel", "AppFlipSyntax", "AppFlipSuiteFiles", "AppFlipDigest"]),
        .executableTarget(name: "suite-embedder"),
        .plugin(name: "EmbedSuite", capability: .buildTool(), dependencies: ["suite-embedder"]),
        .target(
            name: "AppFlipRunner", dependencies: ["AppFlipModel", "AppFlipReference", "AppFlipSystem", "AppFlipHTTP", "AppFlipDigest", "AppFlipTLS"]),
        .target(name: "AppFlipReporting", dependencies: ["AppFlipModel", "AppFlipDigest", "AppFlipSyntax"]),
        .target(name: "AppFlipReference"),
        .target(name: "AppFlipReferenceServer", dependencies: ["AppFlipReference", "AppFlipHTTP", "AppFlipDigest", "AppFlipTLS"]),
        .target(name: "AppFlipReferenceClient", dependencies: ["AppFlipReference", "AppFlipHTTP", "AppFlipDigest", "AppFlipTLS"]),
        // Turning a request (flags, environment, library calls) into targets: a partner's, or the reference.
        .target(
            name: "AppFlipSetup",
            dependencies: [
                "AppFlipModel", "AppFlipRunner", "AppFlipReference", "AppFlipReferenceServer",
                "AppFlipHTTP", "AppFlipSystem", "AppFlipTLS",
            ]),
        .target(
            name: "AppFlipCLI",
            dependencies: [
                "AppFlipModel", "AppFlipSyntax", "AppFlipDigest", "AppFlipSuite", "AppFlipSetup", "AppFlipRunner", "AppFlipReporting",
                "AppFlipReference",
                "AppFlipReferenceServer", "AppFlipReferenceClient", "AppFlipHTTP", "AppFlipSystem",
            ]),
        .target(
            name: "AppFlipConformance",
            dependencies: [
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
                "AppFlipReferenceClient", "AppFlipHTTP", "AppFlipSystem", "AppFlipTLS",
                .target(name: "COpenSSL", condition: .when(platforms: [.linux])),
            ],
            path: "Tests/BrokenNativeClient"),
        // Fast: syntax, model, judging, reporting; no executable, no subprocess (swift test --filter AppFlipUnitTests).
        .testTarget(
            name: "AppFlipUnitTests",
            dependencies: [
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
            dependencies: ["AppFlipTestSupport", "AppFlipModel", "AppFlipSyntax"],
            path: "Tests/AppFlipFuzzTests"
        ),
        // End to end: the built executables, subprocess and HTTP targets, the command line, the library, every case.
        .testTarget(
            name: "AppFlipEndToEndTests",
            dependencies: [
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
