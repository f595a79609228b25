import Foundation

/// Paths in the package checkout, found from this file's location so tests run from any directory.
public enum PackageRoot {
    public static let url: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static var cases: String { url.appendingPathComponent("Conformance/cases").path }
    public static var catalog: String { url.appendingPathComponent("Conformance/requirements.catalog").path }
    public static var junitSchema: String {
        url.deletingLastPathComponent().appendingPathComponent("shared/schemas/junit/jenkins-xunit-junit-10.xsd").path
    }
}
