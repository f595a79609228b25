import AppFlipReporting
import AppFlipTestSupport
import Testing

/// The shape findings are grouped by: the ASCII reading (bytes) against the Character reading it shortcuts (which
/// still reads every other text).
@Suite("Finding shapes")
struct FindingShapeTests {
    @Test(
        "Values masked, words kept",
        arguments: [
            ("declined (opened nothing)", "declined (opened nothing)"),
            ("timed out after 10 s", "timed out after # s"),
            ("state 'a%2520b' instead of 'a%20b'", "state '…' instead of '…'"),
            ("the app's answer", "the app's answer"),
            ("code abc123def456ghi789 was reused", "code … was reused"),
            // A URL is one value: the same defect opens URLs that differ in host, path and query.
            ("opened https://h/?code=‹redacted 8 chars sha256:aaaaaaaa›", "opened https://…"),
            ("opened https://h.example/a/b?code=‹redacted 8 chars›&state=x instead", "opened https://… instead"),
            ("opened https://h.example/a/OPA ?code=‹redacted 8 chars›&state=x instead", "opened https://… instead"),
            ("opened https://h.example/a/OPA\n?code=‹redacted 8 chars›&state=x instead", "opened https://… instead"),
        ])
    func shapes(observed: String, expected: String) {
        #expect(FindingGroup.shape(of: observed) == expected)
    }

    @Test("The same shape as the Character reading, on 20,000 seeded observations")
    func oracle() {
        let pieces = [
            "a", "Z", "code", "state", "0", "42", "1234567890123456", "x1y2z3w4v5u6t7s8", " ", "'", "\"", "`", "(", ")", "_", "-", "%",
            "=", "?", "\r\n", "\n", "app's", "é", "‹redacted 8 chars›", "²", "٣",
        ]
        var random = Mutator(seed: 20_261_131)
        for _ in 0..<20_000 {
            let observed = (0..<random.below(14)).map { _ in pieces[random.below(pieces.count)] }.joined()
            let (shape, expected) = (FindingGroup.shape(of: observed), FindingGroup.characterShape(of: observed))
            guard Array(shape.utf8) == Array(expected.utf8) else {
                Issue.record("\(observed.debugDescription): \(shape.debugDescription), the oracle \(expected.debugDescription)")
                return
            }
        }
    }
}
