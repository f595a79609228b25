import AppFlipSuiteFiles

/// The suite's semantic version, in this one place: the command line's `--version`, every report's provenance and
/// the library's `AppFlipConformance.version` read it. Its case files' digest is carried by the build itself.
package enum SuiteVersion {
    package static let current = "0.3.0"

    /// The git commit this build was made from, when it was built from a checkout (local changes are not seen; the
    /// executable's SHA-256 in the provenance is what pins the build itself).
    package static var sourceCommit: String? { EmbeddedSuiteFiles.sourceCommit }

    /// What `--version` prints: `appflip-conformance 0.3.0`, with the commit's first 12 digits when known.
    package static var line: String {
        "appflip-conformance \(current)" + (sourceCommit.map { " (commit \($0.prefix(12)))" } ?? "")
    }
}
