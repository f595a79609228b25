import AppFlipBase
import AppFlipModel
import AppFlipReporting
import AppFlipTestSupport
import Testing

/// No report writes a bidirectional control a target sent: each is named (`<U+202E>`), in every format, so a browser
/// or a JUnit viewer cannot reorder what a reviewer reads (a state `U+202E…U+202C` shown as `verdict: pass`).
@Suite("Bidirectional controls in every report")
struct BidiControlsTests {
    static let controls: [Unicode.Scalar] = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
        .compactMap(Unicode.Scalar.init)

    private func hasControl(_ text: String) -> Bool { text.unicodeScalars.contains(where: TerminalText.isBidiControl) }

    @Test("HTML text and XML text and attributes name each control; other text, other scripts and neighbours stay as they were")
    func escaping() {
        for control in Self.controls {
            let value = "state is \"\(control)ssap :tcidrev\u{202C}\" — é עברית"
            let name = "&lt;U+" + String(control.value, radix: 16, uppercase: true) + "&gt;"
            for escaped in [HTMLText.text(value), XMLText.text(value), XMLText.attribute(value)] {
                #expect(!hasControl(escaped.replacingOccurrences(of: "\u{202C}", with: "")) && escaped.contains(name), "\(escaped)")
                #expect(escaped.contains("ssap :tcidrev") && escaped.contains("— é עברית"), "\(escaped)")
            }
        }
        // Text with none is returned as it was, U+2014 (a byte 0xE2 too) and the Hebrew letters (0xD7) included.
        #expect(HTMLText.text("a — b עברית") == "a — b עברית" && XMLText.text("a — b") == "a — b")
    }

    @Test("report.html, junit.xml and report.md of a run whose target sent U+202E hold none raw")
    func reports() {
        let run = Fixtures.mixedRun()
        let html = HTMLReport(run: run, profiles: ["app-link"]).render()
        let junit = JUnitReport(run: run).render()
        let markdown = MarkdownReport(run: run, profiles: ["app-link"]).render()
        for (name, text) in [("report.html", html), ("junit.xml", junit), ("report.md", markdown)] {
            #expect(!hasControl(text), "\(name) writes a bidirectional control raw")
        }
        #expect(html.contains("&lt;U+202E&gt;rtl") && junit.contains("&lt;U+202E&gt;rtl"))
    }
}
