import AppFlipLoading
import AppFlipModel
import AppFlipSyntax
import Foundation

/// A case file's text loaded through the loader's public entry point, from a file of its own in a fresh directory,
/// as a run reads one: every diagnostic is thrown, located in `t.case`.
package enum CaseText {
    package static func load(_ text: String, catalog: Catalog?) throws(DiagnosticList) -> [ConformanceCase] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("case-text-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("t.case").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return try CaseLoader.load(from: path, catalog: catalog).cases
    }
}
