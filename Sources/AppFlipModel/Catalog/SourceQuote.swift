/// The sentence of a source a requirement rests on, quoted as the source words it: RFCs verbatim, Google's pages as
/// a short quote. Held once, in the catalog; report.md shows it beside the source links of a failed requirement, so a
/// reviewer reads the rule without leaving the report.
package struct SourceQuote: Sendable, Hashable {
    /// Which of the requirement's citations the words come from.
    package var citation: Citation
    /// The words, with line breaks and runs of spaces made single spaces.
    package var text: String

    package init(citation: Citation, text: String) {
        self.citation = citation
        self.text = Self.collapsingSpaces(text)
    }

    /// A quote whose text is already collapsed (as `CatalogForm` keeps it).
    init(citation: Citation, collapsed text: String) {
        self.citation = citation
        self.text = text
    }

    /// `text` with its runs of spaces, line feeds and tabs made single spaces and its ends trimmed: Characters that
    /// are one of those three split it. An ASCII text without a carriage return (a quote's usual form) is read as
    /// bytes, where each of those bytes is such a Character (grapheme clusters join only non-ASCII scalars to their
    /// neighbours, and CR LF); any other is split Character by Character.
    static func collapsingSpaces(_ text: String) -> String {
        let collapsed = text.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            guard !bytes.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "\r") }) else { return nil }
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count)
            var pendingSpace = false
            for byte in bytes {
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") {
                    pendingSpace = !output.isEmpty
                } else {
                    if pendingSpace { output.append(UInt8(ascii: " ")) }
                    pendingSpace = false
                    output.append(byte)
                }
            }
            return String(decoding: output, as: UTF8.self)
        }
        if let collapsed, let text = collapsed { return text }
        return text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
    }
}
