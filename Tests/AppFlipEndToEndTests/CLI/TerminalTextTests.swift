import AppFlipBase
import AppFlipModel
import AppFlipTestSupport
import Foundation
import Testing

/// Nothing a case file, handler or server writes can drive the terminal the suite prints to.
@Suite("Terminal text")
struct TerminalTextTests {
    @Test("Controls show as escapes, bidirectional controls by name; line feeds, tabs and other text stay")
    func neutralize() {
        #expect(TerminalText.neutralize("\u{1B}]0;pwned\u{07}title") == "\\x1B]0;pwned\\x07title")
        #expect(TerminalText.neutralize("a\u{202E}b\u{2066}c") == "a<U+202E>b<U+2066>c")
        #expect(TerminalText.neutralize("\u{9B}31m\r") == "\\u{9B}31m\\x0D")
        #expect(TerminalText.neutralize("line\n\ttab é 漢") == "line\n\ttab é 漢")
    }

    @Test("A case file's escape sequences reach the console of lint only as escapes")
    func lintOutput() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("term-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try
            "id: a/b\ntitle: \"\u{1B}]0;pwned\u{07}\u{202E}\"\nscenario: consent\nprofile: nope\u{1B}[2J\nrequirement: AF-LINK-005 MUST NOT\nlink:\n  remove: [scope]\nexpect:\n  action: decline\n"
            .write(toFile: directory + "/x.case", atomically: true, encoding: .utf8)
        let (status, text) = try ProgramRun.run(BuiltProducts.path("appflip-conformance"), ["lint", directory, "--catalog", PackageRoot.catalog])
        #expect(status == 2)
        #expect(!text.utf8.contains(0x1B) && !text.utf8.contains(0x07), "\(text)")
        #expect(text.contains("\\x1B[2J"), "\(text)")
    }
}
