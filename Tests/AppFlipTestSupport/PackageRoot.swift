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

    package static var junitSchema: String {
        url.deletingLastPathComponent().appendingPathComponent("shared/schemas/junit/jenkins-xunit-junit-10.xsd").path
    }
}
