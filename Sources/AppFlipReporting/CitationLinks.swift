import AppFlipModel

/// Citations as Markdown links to the catalog's source URLs: `RFC6749 §4.1.2.1` links to that section of the RFC
/// at rfc-editor.org; a citation of any other document links to the document.
enum CitationLinks {
    static func markdown(for id: String, in catalog: Catalog) -> String {
        guard let requirement = catalog[id] else { return "" }
        return requirement.citations.map { citation in
            let text = MarkdownText.inline(citation.description)
            guard let url = catalog.sources[citation.sourceKey]?.url, url.hasPrefix("https://") else { return text }
            return "[\(text)](\(escape(url + anchor(citation.section, url: url))))"
        }.joined(separator: "; ")
    }

    /// `#section-4.1.2.1` (or `#appendix-B`) for an RFC section; nothing for other documents.
    static func anchor(_ section: String, url: String) -> String {
        guard url.contains("rfc-editor.org/rfc/"), section.hasPrefix("§") else { return "" }
        let number = section.dropFirst().prefix { $0.isNumber || $0 == "." || ($0.isUppercase && $0.isASCII) }
        guard let first = number.first, !number.hasSuffix(".") else { return "" }
        return first.isNumber ? "#section-\(number)" : "#appendix-\(number)"
    }

    /// A URL that cannot end the link early or break out of it.
    private static func escape(_ url: String) -> String {
        let replacements: [Character: String] = ["(": "%28", ")": "%29", " ": "%20", "<": "%3C", ">": "%3E"]
        return url.map { replacements[$0] ?? String($0) }.joined()
    }
}
