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
        self.text = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
    }
}
