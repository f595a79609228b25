/// A 1-based position in a source file.
package struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file path as given by the caller (usually relative to the working directory).
    package var file: String
    /// 1-based line number.
    package var line: Int
    /// 1-based column, counted in characters.
    package var column: Int

    package init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    package var description: String { "\(file):\(line):\(column)" }

    package static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
