import AppFlipModel
import Testing

/// The parsed form the built-in catalog is compiled in as (`CatalogForm`): every field reads back as written, and a
/// form that does not read back whole is no catalog (the run then parses the file).
@Suite("The catalog's parsed form")
struct CatalogFormTests {
    static func catalog() -> Catalog {
        var full = Requirement(
            id: "AF-LINK-010", level: .mustNot, profile: "app-link", title: "Title with a colon: 12:3; and ‹›", statement: "",
            citations: [Citation(sourceKey: "RFC6749", section: "§4.1.2"), Citation(sourceKey: "AF-iOS", section: "")],
            decision: "Decided\nacross lines", notObservable: "", planned: "planned 9;",
            quote: SourceQuote(citation: Citation(sourceKey: "RFC6749", section: "§4.1.2"), text: "The words  as\nquoted. 🔑"))
        full.judgedBySuite = "-"
        full.appliesWhen = "when: x"
        let bare = Requirement(id: "AF-TOKEN-001", level: .may, profile: "token", title: "t", statement: "s", citations: [])
        var catalog = Catalog(
            requirements: [full, bare],
            sources: [
                SourceDocument(key: "RFC6749", title: "OAuth 2.0", url: "https://www.rfc-editor.org/rfc/rfc6749"),
                SourceDocument(
                    key: "AF-iOS", title: "App Flip for iOS", url: "https://developers.google.com/identity/account-linking/app-flip-linking"),
            ])
        catalog.programs = [
            CertificationProgram(
                key: "app-flip-ios", title: "App Flip (iOS)", profiles: [.appLink, .authorize], covers: "covers", leavesOut: ["AF-TOKEN-*"],
                leavesOutWhy: "why", needs: [.https, .value(.clientSecret), .endpoint(.token), .signIn(.consent), .user(.secondUser)]),
            CertificationProgram(key: "bare", title: "", profiles: [], covers: ""),
        ]
        return catalog
    }

    @Test("Every field of every requirement, source and program reads back as written")
    func roundTrip() throws {
        let catalog = Self.catalog()
        let decoded = try #require(CatalogForm.decode(CatalogForm.encode(catalog)))
        #expect(decoded.requirements == catalog.requirements)
        #expect(decoded.sources == catalog.sources)
        #expect(decoded.programs == catalog.programs)
        #expect(decoded["AF-TOKEN-001"] == catalog["AF-TOKEN-001"])
        #expect(decoded.file == nil)
    }

    @Test("A form cut anywhere, with a byte more, or of another layout is no catalog")
    func damaged() {
        let form = Array(CatalogForm.encode(Self.catalog()).utf8)
        for length in stride(from: 0, to: form.count, by: 7) {
            #expect(CatalogForm.decode(String(decoding: form[..<length], as: UTF8.self)) == nil, "cut at \(length)")
        }
        #expect(CatalogForm.decode(String(decoding: form + Array("x".utf8), as: UTF8.self)) == nil)
        #expect(CatalogForm.decode(String(decoding: form, as: UTF8.self).replacingOccurrences(of: "form-1", with: "form-2")) == nil)
    }
}
