import Foundation

/// Paths in the package checkout, found from this file's location so tests run from any directory.
package enum PackageRoot {
    package static let url: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    package static var cases: String { url.appendingPathComponent("Conformance/cases").path }
    package static var catalog: String { url.appendingPathComponent("Conformance/requirements.catalog").path }
    /// `../shared` beside the clone (CI lays it there; a partner's checkout has none), and whether a part of it is
    /// there: a test that reads it is enabled only then, and Swift Testing lists it as skipped otherwise.
    package static var shared: URL { url.deletingLastPathComponent().appendingPathComponent("shared") }
    package static func hasShared(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: shared.appendingPathComponent(path).path)
    }

    /// A file of the checkout as text (`README.md`, `Documentation/ExitCodes.md`).
    package static func text(_ relative: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(relative), encoding: .utf8)
    }

    /// The documents a reader is given: README.md, then every article under Documentation/, by name.
    package static var documents: [String] {
        let articles = (try? FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent("Documentation").path)) ?? []
        return ["README.md"] + articles.filter { $0.hasSuffix(".md") }.sorted().map { "Documentation/" + $0 }
    }

    package static var junitSchema: String {
        url.deletingLastPathComponent().appendingPathComponent("shared/schemas/junit/jenkins-xunit-junit-10.xsd").path
    }
}
