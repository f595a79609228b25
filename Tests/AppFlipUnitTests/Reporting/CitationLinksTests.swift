import Testing

@testable import AppFlipReporting

@Suite("Citation links")
struct CitationLinksTests {
    @Test("A source URL cannot end its Markdown link early: parentheses, spaces and angle brackets are percent-encoded")
    func escaping() {
        #expect(CitationLinks.escape("https://example.com/a (b)<c>") == "https://example.com/a%20%28b%29%3Cc%3E")
        #expect(CitationLinks.escape("https://www.rfc-editor.org/rfc/rfc6749#section-4.1") == "https://www.rfc-editor.org/rfc/rfc6749#section-4.1")
        #expect(CitationLinks.escape("https://example.com/é(1)") == "https://example.com/é%281%29")
    }

    @Test("An RFC section links to its anchor; another document's section does not")
    func anchors() {
        #expect(CitationLinks.anchor("§4.1.2.1", url: "https://www.rfc-editor.org/rfc/rfc6749") == "#section-4.1.2.1")
        #expect(CitationLinks.anchor("§B", url: "https://www.rfc-editor.org/rfc/rfc6749") == "#appendix-B")
        #expect(CitationLinks.anchor("§4.1", url: "https://developers.google.com/identity") == "")
    }
}
