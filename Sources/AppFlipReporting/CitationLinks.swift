import AppFlipBase
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
        guard url.containsBytes("rfc-editor.org/rfc/"), section.hasPrefix("§") else { return "" }
        let number = section.dropFirst().prefix { $0.isNumber || $0 == "." || ($0.isUppercase && $0.isASCII) }
        guard let first = number.first, !number.hasSuffix(".") else { return "" }
        return first.isNumber ? "#section-\(number)" : "#appendix-\(number)"
    }

    /// A URL that cannot end the link early or break out of it: `(`, `)`, a space, `<` and `>` percent-encoded,
    /// byte by byte (every requirement row of the matrix links its sources).
    static func escape(_ url: String) -> String {
        guard url.utf8.contains(where: { $0 == 0x28 || $0 == 0x29 || $0 == 0x20 || $0 == 0x3C || $0 == 0x3E }) else { return url }
        var bytes: [UInt8] = []
        for byte in url.utf8 {
            switch byte {
            case 0x28, 0x29, 0x20, 0x3C, 0x3E:
                bytes += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            default:
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
