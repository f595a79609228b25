import Foundation

/// Paths in the package checkout, found from this file's location so tests run from any directory.
package enum PackageRoot {
    package static let url: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    package static var cases: String { url.appendingPathComponent("Conformance/cases").path }
    package static var catalog: String { url.appendingPathComponent("Conformance/requirements.catalog").path }
    package static var junitSchema: String {
        url.deletingLastPathComponent().appendingPathComponent("shared/schemas/junit/jenkins-xunit-junit-10.xsd").path
    }
}
