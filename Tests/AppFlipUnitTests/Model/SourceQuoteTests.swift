import AppFlipLoading
import AppFlipReporting
import AppFlipSyntax
import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipModel

@Suite("Source quotes")
struct SourceQuoteTests {
    private func catalog(quoteSource: String, text: String = "|\n        The words.\n") throws(DiagnosticList) -> Catalog {
        let source = """
            sources:
              - key: RFC6749
                title: OAuth
                url: https://www.rfc-editor.org/rfc/rfc6749
            requirements:
              - id: AF-LINK-007
                level: MUST
                profile: app-link
                title: t
                statement: s
                sources: ["RFC6749 §3.1", "RFC6749 §4.1.2.1"]
                quote:
                  source: \(quoteSource)
                  text: \(text)
            """
        return try CatalogLoader.load(bytes: Array(source.utf8), file: "quote.catalog")
    }

    @Test("A quote names one of its requirement's own sources; its words are kept with line breaks made spaces")
    func loads() throws {
        let loaded = try catalog(
            quoteSource: "RFC6749 §4.1.2.1", text: "|\n        Request and response parameters\n        MUST NOT   be included.\n")
        #expect(
            loaded["AF-LINK-007"]?.quote
                == SourceQuote(
                    citation: Citation(sourceKey: "RFC6749", section: "§4.1.2.1"),
                    text: "Request and response parameters MUST NOT be included."))
    }

    @Test("A quote from a source the requirement does not cite, or with no words, is an error at its line")
    func refused() {
        #expect {
            _ = try catalog(quoteSource: "RFC6749 §3.2")
        } throws: { error in
            let text = (error as? DiagnosticList)?.description ?? ""
            return text.contains("quote.catalog:13:15:") && text.contains("a quote's source must be one of the requirement's own sources")
                && text.contains("did you mean 'RFC6749 §3.1'?")
        }
        #expect {
            _ = try catalog(quoteSource: "RFC6749 §3.1", text: "\"  \"")
        } throws: { error in
            ((error as? DiagnosticList)?.description ?? "").contains("a quote needs the words it quotes")
        }
    }

    /// The English text of "App Flip for iOS" as the page's own data carries it (the Indonesian copy in
    /// shared/seeds embeds the English original), with Markdown's code marks removed and spaces made single.
    private func appFlipForIOSPage() throws -> String? {
        let seeds = PackageRoot.url.appendingPathComponent("../shared/seeds")
        let names = try FileManager.default.contentsOfDirectory(atPath: seeds.path).sorted()
        for name in names {
            guard let text = try? String(contentsOf: seeds.appendingPathComponent(name), encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") where line.hasPrefix("[") && line.contains("# App Flip for iOS") {
                guard let data = line.data(using: .utf8), let json = try? JSONSerialization.jsonObject(with: data) else { continue }
                if let page = Self.firstString(in: json, startingWith: "# App Flip for iOS") { return Self.words(page) }
            }
        }
        return nil
    }

    private static func firstString(in value: Any, startingWith prefix: String) -> String? {
        if let string = value as? String { return string.hasPrefix(prefix) ? string : nil }
        guard let array = value as? [Any] else { return nil }
        for element in array { if let found = firstString(in: element, startingWith: prefix) { return found } }
        return nil
    }

    private static func words(_ text: String) -> String {
        text.replacingOccurrences(of: "`", with: "").replacingOccurrences(of: "**", with: "")
            .split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
    }

    @Test(
        "Every quote of App Flip for iOS is the page's own words (checked against the English page in shared/seeds)",
        .enabled(if: PackageRoot.hasShared("seeds"), "needs ../shared/seeds beside the clone (CI has it)"))
    func appFlipQuotesAreThePage() throws {
        let page = try #require(try appFlipForIOSPage(), "shared/seeds beside the clone holds the App Flip for iOS page")
        let (catalog, _) = try SuiteRun.load()
        let quotes = catalog.requirements.compactMap { requirement in requirement.quote.map { (requirement.id, $0) } }
            .filter { $0.1.citation.sourceKey == "AF-iOS" }
        #expect(quotes.count >= 18)
        for (id, quote) in quotes {
            #expect(page.contains(Self.words(quote.text)), "\(id) quotes words the page does not have: \(quote.text)")
        }
    }

    @Test("Every requirement resting only on App Flip for iOS and RFC 6749, the texts quoted so far, quotes one of them")
    func quotedWhereTheTextIsAtHand() throws {
        let (catalog, _) = try SuiteRun.load()
        for requirement in catalog.requirements where requirement.citations.allSatisfy({ ["AF-iOS", "RFC6749"].contains($0.sourceKey) }) {
            #expect(requirement.quote != nil, "\(requirement.id) cites only AF-iOS and RFC 6749 but quotes neither")
        }
    }

    @Test("A failed requirement's finding quotes its source beside the links; one without a quote shows the links alone")
    func reportQuotes() {
        let markdown = MarkdownReport(run: Fixtures.mixedRun(), profiles: ["app-link"]).render()
        #expect(
            markdown.contains(
                """
                - **Sources:** [RFC6749 §4.1.2.1](https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2.1)
                - **RFC6749 §4.1.2.1 says:** “the authorization server SHOULD inform the resource owner of the error and MUST NOT \
                automatically redirect the user-agent to the invalid redirection URI.”
                """), "\(markdown)")
        #expect(markdown.components(separatedBy: " says:** “").count == 2)
    }

    @Test("Spaces collapse as the Character split collapsed them, on 20,000 seeded texts (ASCII read as bytes)")
    func collapsingAgainstOracle() {
        let pieces = [" ", "\n", "\t", "  ", "\r", "\r\n", "a", "MUST", ".", "é", " \u{301}", "\u{301}", "\u{600}", "’", "x y"]
        var random = Mutator(seed: 20_261_205)
        for _ in 0..<20_000 {
            let text = (0..<random.below(12)).map { _ in random.below(3) == 0 ? pieces[random.below(4)] : pieces[random.below(pieces.count)] }
                .joined()
            let expected = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
            guard Array(SourceQuote.collapsingSpaces(text).utf8) == Array(expected.utf8) else {
                Issue.record(
                    "\(text.debugDescription): \(SourceQuote.collapsingSpaces(text).debugDescription), the oracle \(expected.debugDescription)")
                return
            }
        }
    }
}
