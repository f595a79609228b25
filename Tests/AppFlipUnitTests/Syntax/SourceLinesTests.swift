import AppFlipSyntax
import Testing

/// The line a diagnostic shows is found on demand; it must be the line `split` gives, whatever the endings.
@Suite("Source lines")
struct SourceLinesTests {
    static let texts = [
        "", "a", "a\n", "a\nb", "a\r\nb\r\n", "a\rb\nc", "\r\r\n\n", "x\n\ny\r", "é\u{301}\r\nñ\n", "tab\tline\n  indented",
        "a\u{2028}b\nc", "last\r",
    ]

    @Test("Line N found by scanning bytes equals line N of the split text, and past the end is empty", arguments: texts)
    func sameAsSplit(_ text: String) {
        let bytes = Array(text.utf8)
        let lines = SourceLines.split(text)
        for (index, line) in lines.enumerated() {
            #expect(SourceLines.line(index + 1, of: bytes) == line, "line \(index + 1) of \(text.debugDescription)")
        }
        #expect(SourceLines.line(lines.count + 1, of: bytes) == "")
        #expect(SourceLines.line(0, of: bytes) == "")
    }

    @Test("Invalid UTF-8 in a line shows as U+FFFD, as in the split text")
    func invalidBytes() {
        let bytes: [UInt8] = Array("ok\nbad ".utf8) + [0xFF, 0xC0] + Array("\nend".utf8)
        #expect(SourceLines.line(2, of: bytes) == SourceLines.split(String(decoding: bytes, as: UTF8.self))[1])
        #expect(SourceLines.line(2, of: bytes).contains("\u{FFFD}"))
    }
}
