/// Splits text into lines the way the parser counts them.
package enum SourceLines {
    /// Lines without their endings. LF and CR LF both end a line; `"\r\n"` is a single `Character` in Swift, so
    /// splitting on `"\n"` alone would miss it.
    package static func split(_ text: String) -> [String] {
        text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init)
    }
}
