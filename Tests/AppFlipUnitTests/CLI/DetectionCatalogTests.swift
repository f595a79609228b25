import AppFlipCLI
import AppFlipDefects
import AppFlipModel
import AppFlipTestSupport
import Foundation
import Testing

/// The shipped defect catalog against the requirement catalog, and Conformance/DETECTION.md against both.
@Suite("Detection catalog")
struct DetectionCatalogTests {
    @Test("Every defect names requirements the catalog has, failures at MUST level and warnings at SHOULD level")
    func namesExist() throws {
        let (catalog, _) = try SuiteRun.load()
        let levels = Dictionary(uniqueKeysWithValues: catalog.requirements.map { ($0.id, $0.level) })
        for defect in DefectCatalog.all {
            for id in defect.fails {
                #expect([.must, .mustNot].contains(levels[id]), "\(defect.id) fails \(id), which is \(levels[id]?.rawValue ?? "not in the catalog")")
            }
            for id in defect.warns {
                #expect(
                    [.should, .shouldNot].contains(levels[id]), "\(defect.id) warns \(id), which is \(levels[id]?.rawValue ?? "not in the catalog")")
            }
            if defect.role != .defect { #expect(defect.fails.isEmpty && defect.warns.isEmpty, "\(defect.id) is no defect but names findings") }
            if defect.role == .defect { #expect(!(defect.fails.isEmpty && defect.warns.isEmpty), "\(defect.id) names nothing it breaks") }
            #expect(!defect.summary.isEmpty)
        }
        let ids = DefectCatalog.all.map(\.id)
        #expect(Set(ids).count == ids.count, "an entry is listed twice")
    }

    @Test("Conformance/DETECTION.md is what the catalogs declare (RECORD_GOLDEN=1 rewrites it)")
    func documentHolds() throws {
        let (catalog, _) = try SuiteRun.load()
        let path = PackageRoot.url.appendingPathComponent("Conformance/DETECTION.md").path
        let rendered = DetectionDocument.render(catalog) + "\n"
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
            try rendered.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == rendered, "regenerate it: swift run appflip-conformance detection --document > Conformance/DETECTION.md")
    }
}
