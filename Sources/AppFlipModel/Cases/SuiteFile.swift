/// One file of a suite as it was read: a case file or the requirement catalog, with the exact bytes loaded, so an
/// evidence bundle holds what the run used even if the file changes on disk afterwards.
package struct SuiteFile: Sendable, Equatable {
    /// The path as displayed in diagnostics and reports (`Conformance/cases/app-link/state/echo.case`).
    package var path: String
    package var bytes: [UInt8]

    package init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }
}
