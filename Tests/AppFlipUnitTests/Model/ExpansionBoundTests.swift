import AppFlipLoading
import AppFlipModel
import AppFlipSyntax
import Foundation
import Testing

/// `${repeat}` cannot turn a few bytes of case file into gigabytes: bounded per expansion, per case and per run,
/// each refused at load time with the line.
@Suite("Expansion bounds")
struct ExpansionBoundTests {
    private func caseText(_ id: String, repeatCount: Int, count: Int) -> String {
        "id: \(id)\ntitle: t\nprofile: app-link\nscenario: consent\nrepeat: \(repeatCount)\nlink:\n  set:\n    state: ${repeat:\(count):AAAA}\n"
            + "requirement: AF-LINK-005 MUST NOT\nexpect:\n  action: decline\n"
    }

    private func load(_ files: [String: String]) -> [Diagnostic] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bounds-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (name, text) in files { try? text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
        do {
            _ = try CaseLoader.load(from: directory, catalog: nil)
            return []
        } catch {
            return error.diagnostics
        }
    }

    @Test("A case whose rounds expand past 8 MiB is refused at its line; one under it loads")
    func perCase() {
        let refused = load(["a.case": caseText("bomb/a", repeatCount: 100, count: 262_144)])
        #expect(refused.contains { $0.message.contains("expand to 104857600 bytes") && $0.location.line == 1 }, "\(refused)")
        #expect(load(["a.case": caseText("bomb/a", repeatCount: 2, count: 262_144)]).isEmpty)
    }

    @Test("Cases that each stay under the bound but add up past 128 MiB are refused at the case that crosses it")
    func perRun() {
        var files: [String: String] = [:]
        for index in 0..<20 { files["c\(index).case"] = caseText("bomb/c\(index)", repeatCount: 7, count: 262_144) }
        let refused = load(files)
        #expect(refused.count == 1 && refused[0].message.contains("more than 134217728 bytes in all"), "\(refused)")
    }

    @Test("A count that would overflow, or one expansion over 1 MiB, is a located error, never a crash")
    func oneExpansion() {
        for count in ["3000000000000000000", "1048576"] {
            let refused = load([
                "a.case": caseText("bomb/a", repeatCount: 1, count: 1).replacingOccurrences(of: "${repeat:1:", with: "${repeat:\(count):")
            ])
            #expect(refused.contains { $0.message.contains("expands to at most 1048576 bytes") && $0.location.line == 8 }, "\(refused)")
        }
    }
}
