/// A problem found in an input file, printed like a compiler diagnostic with the offending line and a caret.
package struct Diagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Severity: String, Sendable, Hashable {
        case error
        case warning
        case note
    }

    package var severity: Severity
    package var location: SourceLocation
    package var message: String
    /// The text of the offending line, without its line terminator; empty when not known.
    package var lineText: String

    package init(_ severity: Severity = .error, at location: SourceLocation, _ message: String, lineText: String = "") {
        self.severity = severity
        self.location = location
        self.message = message
        self.lineText = lineText
    }

    /// `path:line:column: error: message`, then the line and a caret under the column.
    package var description: String {
        var text = "\(location): \(severity.rawValue): \(message)"
        guard !lineText.isEmpty else { return text }
        let shown = lineText.count > 200 ? String(lineText.prefix(200)) + "…" : lineText
        let printable = String(shown.map { $0.isASCII && ($0.asciiValue ?? 0) < 0x20 ? " " : $0 })
        let caretColumn = min(max(location.column - 1, 0), printable.count)
        text += "\n    \(printable)\n    " + String(repeating: " ", count: caretColumn) + "^"
        return text
    }
}

/// Several diagnostics found in one pass; thrown when at least one is an error.
package struct DiagnosticList: Error, Sendable, CustomStringConvertible {
    package var diagnostics: [Diagnostic]

    package init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics.sorted { $0.location < $1.location }
    }

    package var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
