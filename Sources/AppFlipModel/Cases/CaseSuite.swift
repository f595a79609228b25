import AppFlipDigest
import AppFlipSyntax
import Foundation

/// The cases of one run, with what a report needs to say where they came from.
public struct CaseSuite: Sendable {
    public var cases: [ConformanceCase]
    /// Case files read, relative paths as displayed, sorted.
    public var files: [String]
    /// SHA-256 over every case file's path and bytes, in path order.
    public var digest: String
    /// The directory the digest's paths are relative to (the cases root).
    public var root: String = ""
    /// The case files' bytes as loaded, in path order.
    public var sources: [SuiteFile] = []

    public init(cases: [ConformanceCase], files: [String], digest: String) {
        self.cases = cases
        self.files = files
        self.digest = digest
    }

    /// A case file's path as the digest counts it (relative to `root`).
    public func digestPath(of file: String) -> String {
        CaseLoader.relativePath(of: file, to: root)
    }
}

