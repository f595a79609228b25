import Foundation
import Testing

/// Compares output with a golden file under `Tests/AppFlipUnitTests/Golden/`.
///
/// Re-record with `RECORD_GOLDEN=1 swift test`; recording is refused on CI so a run there can never pass by
/// rewriting its own expectations.
package enum Golden {
    package static func check(_ actual: String, against name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let path = PackageRoot.url.appendingPathComponent("Tests/AppFlipUnitTests/Golden/\(name)").path
        let environment = ProcessInfo.processInfo.environment
        if environment["RECORD_GOLDEN"] == "1" {
            guard environment["CI"] == nil else {
                Issue.record("RECORD_GOLDEN is refused on CI", sourceLocation: sourceLocation)
                return
            }
            try Data(actual.utf8).write(to: URL(fileURLWithPath: path))
            return
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            Issue.record("missing golden file \(name); record it with RECORD_GOLDEN=1 swift test", sourceLocation: sourceLocation)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        if expected != actual {
            let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let first =
                zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(expectedLines.count, actualLines.count)
            let shownExpected = first < expectedLines.count ? String(expectedLines[first]) : "<end>"
            let shownActual = first < actualLines.count ? String(actualLines[first]) : "<end>"
            Issue.record(
                "\(name) differs at line \(first + 1):\n  expected: \(shownExpected)\n  actual:   \(shownActual)",
                sourceLocation: sourceLocation)
        }
    }
}
