/// The suite's semantic version, in this one place: the command line's `--version`, every report's provenance and
/// the library's `AppFlipConformance.version` read it. Its case files' digest is carried by the build itself.
package enum SuiteVersion {
    package static let current = "0.2.0"
}
