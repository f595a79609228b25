// swift-tools-version:6.0
// An app's App Flip link handling in plain Swift, checked by the AppFlip Conformance suite under `swift test`.
// Copy this package's shape: your handler in a target of its own, and a test target that depends on the suite.
import Foundation
import PackageDescription

// A package depended on by path is named after its directory (here, wherever the suite is checked out).
let suite = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

let package = Package(
    name: "AppFlipHandlerExample",
    platforms: [.macOS(.v13)],
    dependencies: [
        // In your package: .package(url: "https://github.com/your-org/appflip-conformance", from: "0.2.0"), and
        // .product(name: "AppFlipConformance", package: "appflip-conformance") below.
        .package(path: "../..")
    ],
    targets: [
        // What the app runs when Google's app opens its universal link: no dependency on the suite.
        .target(name: "FlipHandler"),
        .testTarget(
            name: "FlipHandlerTests",
            dependencies: ["FlipHandler", .product(name: "AppFlipConformance", package: suite)]),
    ]
)
