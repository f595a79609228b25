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

    public init(cases: [ConformanceCase], files: [String], digest: String) {
        self.cases = cases
        self.files = files
        self.digest = digest
    }
}

