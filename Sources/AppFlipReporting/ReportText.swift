/// A sentence a report writes in Markdown and in HTML alike: the suite's own words, code (profile names, paths) and
/// values from outside (reasons, paths), each rendered by its format's rules (`MarkdownText`, `HTMLText`).
package struct ReportText: Sendable, ExpressibleByStringInterpolation {
    package enum Span: Sendable {
        /// The suite's own words, written as they are in Markdown.
        case suite(String)
        /// A value from outside (a reason, a message), escaped and cut to `limit` characters.
        case value(String, limit: Int)
        /// Code: a profile's name, a path.
        case code(String)
    }

    package var spans: [Span]

    package init(_ spans: [Span]) { self.spans = spans }
    package init(stringLiteral text: String) { spans = [.suite(text)] }
    /// Interpolated text is the suite's own words (numbers, counts): values from outside go in `.value`.
    package init(stringInterpolation: DefaultStringInterpolation) { spans = [.suite(String(stringInterpolation: stringInterpolation))] }

    package static func + (lhs: ReportText, rhs: ReportText) -> ReportText { ReportText(lhs.spans + rhs.spans) }
    package static func + (lhs: ReportText, rhs: String) -> ReportText { ReportText(lhs.spans + [.suite(rhs)]) }
    package static func + (lhs: String, rhs: ReportText) -> ReportText { ReportText([.suite(lhs)] + rhs.spans) }

    package static func value(_ text: String, limit: Int = 400) -> ReportText { ReportText([.value(text, limit: limit)]) }
    package static func code(_ text: String) -> ReportText { ReportText([.code(text)]) }

    /// The pieces joined by `separator` (the suite's words).
    package static func joined(_ pieces: [ReportText], separator: String) -> ReportText {
        ReportText(pieces.enumerated().flatMap { index, piece in (index == 0 ? [] : [Span.suite(separator)]) + piece.spans })
    }

    /// As Markdown: the suite's words as written, values escaped (`MarkdownText.inline`), code in backticks.
    package var markdown: String {
        spans.map { span in
            switch span {
            case .suite(let text): text
            case .value(let text, let limit): MarkdownText.inline(text, limit: limit)
            case .code(let text): "`" + MarkdownText.inline(text) + "`"
            }
        }.joined()
    }

    /// As HTML: every span escaped as text (`HTMLText.text`), code in `<code>`.
    package var html: String {
        spans.map { span in
            switch span {
            case .suite(let text): HTMLText.text(text)
            case .value(let text, let limit): HTMLText.text(HTMLText.cut(text, limit: limit))
            case .code(let text): "<code>" + HTMLText.text(text) + "</code>"
            }
        }.joined()
    }
}
