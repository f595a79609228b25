import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipReporting

/// The parts of an observed text that root causes are found among, read as bytes, against the Foundation reading
/// it replaced (`components(separatedBy: "; ")`, `.whitespaces` trimming), kept here as the oracle.
@Suite("Root causes' observation parts against their Foundation oracle")
struct RootCauseElementsTests {
    static func oracle(_ observed: String) -> [String] {
        var parts: [String] = []
        for piece in observed.components(separatedBy: "; ") {
            var text = Substring(piece.trimmingCharacters(in: .whitespaces))
            if text.hasPrefix("("), let close = text.firstIndex(of: ")"), text[text.index(after: text.startIndex)..<close].allSatisfy(\.isNumber) {
                text = text[text.index(after: close)...].drop { $0 == " " }
            }
            if !text.isEmpty, !parts.contains(String(text)) { parts.append(String(text)) }
        }
        return parts.isEmpty ? [observed] : parts
    }

    @Test("An observation is cut into the same parts as Foundation cut it, on 20,000 seeded texts")
    func parts() {
        let pieces = [
            "; ", ";", " ", ";;  ", "(1) ", "(2)", "(٣) ", "(x) ", "no state parameter", "code=‹redacted›", "\u{A0}", "\u{2003}", "\u{200B}",
            "\u{301}", "é", "\t", "a", "; \u{301}x", ")", "(",
        ]
        var random = Mutator(seed: 20_261_205)
        for _ in 0..<20_000 {
            let text = (0..<(1 + random.below(10))).map { _ in pieces[random.below(pieces.count)] }.joined()
            let (read, expected) = (RootCause.elements(of: text), Self.oracle(text))
            guard read == expected else {
                Issue.record("\(text.debugDescription): \(read), the oracle \(expected)")
                return
            }
        }
        #expect(RootCause.elements(of: "(1) no state; (2) a code") == ["no state", "a code"])
    }
}
