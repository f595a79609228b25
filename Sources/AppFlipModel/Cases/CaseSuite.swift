import Foundation

/// The cases of one run, with what a report needs to say where they came from.
package struct CaseSuite: Sendable {
    package var cases: [ConformanceCase]
    /// The case files' bytes as loaded, in path order.
    package var sources: [SuiteFile]
    /// SHA-256 over every case file's path and bytes, in path order.
    package var digest: String
    /// The directory the digest's paths are relative to (the cases root).
    package var root: String

    /// The case files' paths as displayed, sorted.
    package var files: [String] { sources.map(\.path) }

    package init(cases: [ConformanceCase], sources: [SuiteFile], digest: String, root: String) {
        self.cases = cases
        self.sources = sources
        self.digest = digest
        self.root = root
    }

    /// A case file's path as the digest counts it (relative to `root`).
    package func digestPath(of file: String) -> String {
        Self.relativePath(of: file, to: root)
    }

    /// `file` relative to `base` when it lies under it; its last component otherwise.
    package static func relativePath(of file: String, to base: String) -> String {
        let standardFile = (file as NSString).standardizingPath
        let standardBase = (base as NSString).standardizingPath
        return standardFile.hasPrefix(standardBase + "/")
            ? String(standardFile.dropFirst(standardBase.count + 1))
            : (standardFile as NSString).lastPathComponent
    }
}
