import AppFlipTestSupport
import Foundation
import Testing

/// The two ways a partner depends on the suite, as Documentation/GettingStarted.md writes them, resolve: by URL (the package is named after
/// the URL's last component) and by path (named after the directory).
@Suite("Depending on the package", .serialized)
struct PackageDependencyTests {
    private func consumer(dependency: String, package: String, in directory: String) throws -> (status: Int32, output: String) {
        let root = directory + "/consumer-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root + "/Tests/ConsumerTests", withIntermediateDirectories: true)
        try """
        // swift-tools-version:6.0
        import PackageDescription

        let package = Package(
            name: "Consumer",
            platforms: [.macOS(.v13)],
            dependencies: [\(dependency)],
            targets: [.testTarget(name: "ConsumerTests", dependencies: [.product(name: "AppFlipConformance", package: "\(package)")])]
        )

        """.write(toFile: root + "/Package.swift", atomically: true, encoding: .utf8)
        try "import AppFlipConformance\n".write(toFile: root + "/Tests/ConsumerTests/Check.swift", atomically: true, encoding: .utf8)
        return try ProgramRun.run("/usr/bin/env", ["swift", "package", "--package-path", root, "resolve"])
    }

    @Test("By path: package is the directory's name; by URL: package is the URL's last component without .git")
    func bothSpellingsResolve() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dependency-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A checkout in a directory named appflip-conformance, as the documented path dependency has it.
        try FileManager.default.createSymbolicLink(atPath: directory + "/appflip-conformance", withDestinationPath: PackageRoot.url.path)
        let byPath = try consumer(dependency: #".package(path: "../appflip-conformance")"#, package: "appflip-conformance", in: directory)
        #expect(byPath.status == 0, "\(byPath.output)")
        // The name that fails for a checkout in another directory, and what SwiftPM says then.
        let wrong = try consumer(dependency: #".package(path: "../appflip-conformance")"#, package: "AppFlipConformance", in: directory)
        #expect(wrong.status != 0 && wrong.output.contains("valid packages are: 'appflip-conformance'"), "\(wrong.output)")
        // By URL: a repository whose URL ends in appflip-conformance(.git).
        let clone = try ProgramRun.run(
            "/usr/bin/env", ["git", "clone", "--quiet", "--bare", PackageRoot.url.path, directory + "/remote/appflip-conformance.git"])
        #expect(clone.status == 0, "\(clone.output)")
        let byURL = try consumer(
            dependency: #".package(url: "file://\#(directory)/remote/appflip-conformance.git", branch: "HEAD")"#,
            package: "appflip-conformance", in: directory)
        #expect(byURL.status == 0, "\(byURL.output)")
    }
}
