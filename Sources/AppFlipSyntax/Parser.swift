/// Parses the project's small YAML-like case format into a `Node` tree.
///
/// The grammar (see `Conformance/FORMAT.md`): nested mappings by indentation (spaces only), lists of `- item`,
/// one-line lists `[a, "b"]`, plain, `"double"` and `'single'` quoted scalars, `|` block strings, `#` comments.
/// There are no anchors, aliases, tags, flow mappings or multi-document streams. Every error carries a location.
package struct Parser {
    /// Limits that keep a hostile file from costing unbounded time or memory.
    package struct Limits: Sendable {
        package var maximumBytes: Int
        package var maximumDepth: Int

        package init(maximumBytes: Int = 1 << 20, maximumDepth: Int = 32) {
            self.maximumBytes = maximumBytes
            self.maximumDepth = maximumDepth
        }
    }

    private struct Line {
        var number: Int
        var characters: [Character]
        var text: String
        /// Leading spaces; meaningful only when the line is significant.
        var indent: Int
        /// True for lines that are blank or hold only a comment.
        var isInsignificant: Bool
    }

    private let file: String
    private let limits: Limits
    private var lines: [Line] = []
    private var cursor = 0
    private var diagnostics: [Diagnostic] = []
    private var depth = 0

    private init(file: String, limits: Limits) {
        self.file = file
        self.limits = limits
    }

    /// Parses a whole file. Throws a `DiagnosticList` holding every error found.
    package static func parse(bytes: [UInt8], file: String, limits: Limits = Limits()) throws(DiagnosticList) -> Node {
        var parser = Parser(file: file, limits: limits)
        guard bytes.count <= limits.maximumBytes else {
            throw DiagnosticList([
                Diagnostic(
                    at: SourceLocation(file: file, line: 1, column: 1),
                    "file is \(bytes.count) bytes; the limit is \(limits.maximumBytes)")
            ])
        }
        guard let text = Parser.decodeUTF8(bytes, file: file, diagnostics: &parser.diagnostics) else {
            throw DiagnosticList(parser.diagnostics)
        }
        parser.split(text)
        let node = parser.parseDocument()
        if let node, !parser.diagnostics.contains(where: { $0.severity == .error }) {
            return node
        }
        throw DiagnosticList(parser.diagnostics)
    }

    /// Parses text already in memory.
    package static func parse(_ text: String, file: String, limits: Limits = Limits()) throws(DiagnosticList) -> Node {
        try parse(bytes: Array(text.utf8), file: file, limits: limits)
    }

    // MARK: - Lines

    private static func decodeUTF8(_ bytes: [UInt8], file: String, diagnostics: inout [Diagnostic]) -> String? {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        if let text = String(validating: body, as: UTF8.self) { return text }
        // Find the first invalid byte to point at it.
        var line = 1
        var lineStart = body.startIndex
        var index = body.startIndex
        while index < body.endIndex {
            let length = Parser.validSequenceLength(body, at: index)
            if length == 0 {
                let prefix = String(decoding: body[lineStart..<index], as: UTF8.self)
                diagnostics.append(
                    Diagnostic(
                        at: SourceLocation(file: file, line: line, column: prefix.count + 1),
                        "invalid UTF-8 byte 0x\(String(body[index], radix: 16, uppercase: true))",
                        lineText: prefix))
                return nil
            }
            if body[index] == 0x0A {
                line += 1
                lineStart = index + 1
            }
            index += length
        }
        return nil
    }

    private static func validSequenceLength(_ bytes: ArraySlice<UInt8>, at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        guard index + length <= bytes.endIndex else { return 0 }
        let candidate = bytes[index..<(index + length)]
        return String(validating: candidate, as: UTF8.self) == nil ? 0 : length
    }

    private mutating func split(_ text: String) {
        var number = 0
        for lineText in SourceLines.split(text) {
            number += 1
            let characters = Array(lineText)
            var indent = 0
            while indent < characters.count, characters[indent] == " " { indent += 1 }
            let rest = characters[indent...]
            let insignificant = rest.allSatisfy { $0 == " " } || rest.first == "#"
            if !insignificant, indent < characters.count, characters[indent] == "\t" {
                diagnostics.append(
                    diagnostic(
                        line: number, column: indent + 1, text: lineText,
                        "tab character in indentation; indent with spaces"))
            }
            lines.append(
                Line(
                    number: number, characters: characters, text: lineText, indent: indent,
                    isInsignificant: insignificant))
        }
        if lines.last?.characters.isEmpty == true, lines.count > 1 { lines.removeLast() }
    }

    private func diagnostic(line: Int, column: Int, text: String, _ message: String) -> Diagnostic {
        Diagnostic(at: SourceLocation(file: file, line: line, column: column), message, lineText: text)
    }

    private mutating func error(_ line: Line, column: Int, _ message: String) {
        diagnostics.append(diagnostic(line: line.number, column: column + 1, text: line.text, message))
    }

    private func location(_ line: Line, column: Int) -> SourceLocation {
        SourceLocation(file: file, line: line.number, column: column + 1)
    }

    /// Index of the next significant line at or after `from`, or nil.
    private func nextSignificant(from: Int) -> Int? {
        var index = from
        while index < lines.count {
            if !lines[index].isInsignificant { return index }
            index += 1
        }
        return nil
    }

    // MARK: - Blocks

    private mutating func parseDocument() -> Node? {
        guard let first = nextSignificant(from: 0) else {
            diagnostics.append(Diagnostic(at: SourceLocation(file: file, line: 1, column: 1), "the file is empty"))
            return nil
        }
        if lines[first].indent != 0 {
            error(lines[first], column: lines[first].indent, "the first line must not be indented")
        }
        cursor = first
        let node = parseBlock(indent: lines[first].indent, inline: nil)
        if let next = nextSignificant(from: cursor) {
            error(lines[next], column: lines[next].indent, "unexpected indentation")
        }
        return node
    }

    /// Where a block starts in the middle of a line (after `- `).
    private struct InlineStart {
        var line: Int
        var column: Int
    }

    /// Parses a mapping or a list whose entries sit at exactly `indent`.
    private mutating func parseBlock(indent: Int, inline: InlineStart?) -> Node? {
        depth += 1
        defer { depth -= 1 }
        let startLine = inline?.line ?? cursor
        let startColumn = inline?.column ?? lines[cursor].indent
        guard depth <= limits.maximumDepth else {
            error(lines[startLine], column: startColumn, "nesting deeper than \(limits.maximumDepth) levels")
            cursor = lines.count
            return nil
        }
        let characters = lines[startLine].characters
        let isList =
            characters[startColumn] == "-"
            && (startColumn + 1 == characters.count || characters[startColumn + 1] == " ")
        return isList ? parseList(indent: indent, inline: inline) : parseMapping(indent: indent, inline: inline)
    }

    private mutating func parseList(indent: Int, inline: InlineStart?) -> Node? {
        var items: [Node] = []
        var pending = inline
        let start = location(lines[inline?.line ?? cursor], column: inline?.column ?? indent)
        while true {
            let lineIndex: Int
            let dashColumn: Int
            if let current = pending {
                lineIndex = current.line
                dashColumn = current.column
                pending = nil
            } else {
                guard let next = nextSignificant(from: cursor), lines[next].indent == indent else { break }
                lineIndex = next
                dashColumn = indent
            }
            let line = lines[lineIndex]
            guard line.characters[dashColumn] == "-",
                dashColumn + 1 == line.characters.count || line.characters[dashColumn + 1] == " "
            else {
                error(line, column: dashColumn, "expected a list item '- ' at this indentation")
                cursor = lineIndex + 1
                skipMoreIndented(than: indent)
                continue
            }
            cursor = lineIndex + 1
            var contentColumn = dashColumn + 1
            while contentColumn < line.characters.count, line.characters[contentColumn] == " " { contentColumn += 1 }
            if contentColumn >= line.characters.count || line.characters[contentColumn] == "#" {
                // The item's value is an indented block on the following lines.
                if let next = nextSignificant(from: cursor), lines[next].indent > indent {
                    cursor = next
                    if let node = parseBlock(indent: lines[next].indent, inline: nil) { items.append(node) }
                } else {
                    error(line, column: dashColumn, "list item has no value")
                }
                continue
            }
            if startsMappingEntry(line, at: contentColumn) {
                if let node = parseBlock(indent: contentColumn, inline: InlineStart(line: lineIndex, column: contentColumn)) {
                    items.append(node)
                }
            } else if let node = parseInlineValue(line: lineIndex, column: contentColumn, parentIndent: indent) {
                items.append(node)
            }
        }
        return .sequence(Node.Sequence(items: items, location: start))
    }

    private mutating func parseMapping(indent: Int, inline: InlineStart?) -> Node? {
        var entries: [Node.Mapping.Entry] = []
        var seen: [String: SourceLocation] = [:]
        var pending = inline
        let start = location(lines[inline?.line ?? cursor], column: inline?.column ?? indent)
        while true {
            let lineIndex: Int
            let keyColumn: Int
            if let current = pending {
                lineIndex = current.line
                keyColumn = current.column
                pending = nil
            } else {
                guard let next = nextSignificant(from: cursor), lines[next].indent == indent else { break }
                lineIndex = next
                keyColumn = indent
            }
            cursor = lineIndex + 1
            let line = lines[lineIndex]
            guard let (key, valueColumn) = parseKey(line: line, column: keyColumn) else {
                skipMoreIndented(than: indent)
                continue
            }
            if let first = seen[key.text] {
                error(line, column: keyColumn, "duplicate key '\(key.text)' (first written at line \(first.line))")
                skipMoreIndented(than: indent)
                continue
            }
            seen[key.text] = key.location
            if let value = parseValue(line: lineIndex, column: valueColumn, parentIndent: indent, keyColumn: keyColumn) {
                entries.append(Node.Mapping.Entry(key: key, value: value))
            }
        }
        return .mapping(Node.Mapping(entries: entries, location: start))
    }

    private mutating func skipMoreIndented(than indent: Int) {
        while let next = nextSignificant(from: cursor), lines[next].indent > indent { cursor = next + 1 }
    }

    /// True when the text at `column` reads as `key: ...` (or `"key": ...`).
    private func startsMappingEntry(_ line: Line, at column: Int) -> Bool {
        let characters = line.characters
        var index = column
        if characters[index] == "\"" || characters[index] == "'" {
            let quote = characters[index]
            index += 1
            while index < characters.count {
                if characters[index] == "\\", quote == "\"" {
                    index += 2
                    continue
                }
                if characters[index] == quote {
                    if quote == "'", index + 1 < characters.count, characters[index + 1] == "'" {
                        index += 2
                        continue
                    }
                    break
                }
                index += 1
            }
            index += 1
            return index < characters.count && characters[index] == ":"
                && (index + 1 == characters.count || characters[index + 1] == " ")
        }
        if characters[index] == "[" || characters[index] == "{" { return false }
        while index < characters.count {
            if characters[index] == ":", index + 1 == characters.count || characters[index + 1] == " " { return true }
            if characters[index] == "#", index > column, characters[index - 1] == " " { return false }
            index += 1
        }
        return false
    }

    /// Parses `key:` at `column`; returns the key and the column just after the colon.
    private mutating func parseKey(line: Line, column: Int) -> (Node.Scalar, Int)? {
        let characters = line.characters
        if characters[column] == "-", column + 1 == characters.count || characters[column + 1] == " " {
            error(line, column: column, "a list item where a 'key: value' entry was expected")
            return nil
        }
        if characters[column] == "\"" || characters[column] == "'" {
            guard let (text, end) = parseQuoted(line: line, column: column) else { return nil }
            guard end < characters.count, characters[end] == ":",
                end + 1 == characters.count || characters[end + 1] == " "
            else {
                error(line, column: end, "expected ':' after the quoted key")
                return nil
            }
            let style: Node.Scalar.Style = characters[column] == "\"" ? .doubleQuoted : .singleQuoted
            return (Node.Scalar(text: text, style: style, location: location(line, column: column)), end + 1)
        }
        var index = column
        while index < characters.count {
            if characters[index] == ":", index + 1 == characters.count || characters[index + 1] == " " { break }
            index += 1
        }
        guard index < characters.count else {
            error(line, column: column, "expected 'key: value'")
            return nil
        }
        let key = String(characters[column..<index]).trimmingTrailingSpaces()
        if key.isEmpty {
            error(line, column: column, "empty key")
            return nil
        }
        // Braces are allowed only as part of a `${…}` variable, which a table row substitutes into keys.
        let keyCharacters = Array(characters[column..<index])
        func isVariableBrace(_ offset: Int) -> Bool {
            let character = keyCharacters[offset]
            if character == "{" { return offset > 0 && keyCharacters[offset - 1] == "$" }
            if character == "}" { return keyCharacters[..<offset].lastIndex(of: "{").map { $0 > 0 && keyCharacters[$0 - 1] == "$" } ?? false }
            return false
        }
        if let offset = keyCharacters.indices.first(where: {
            "\t#[],".contains(keyCharacters[$0]) || ("{}".contains(keyCharacters[$0]) && !isVariableBrace($0))
        }) {
            let bad = column + offset
            error(
                line, column: bad,
                "character '\(characters[bad] == "\t" ? "\\t" : String(characters[bad]))' is not allowed in a plain key; quote the key")
            return nil
        }
        return (Node.Scalar(text: key, style: .plain, location: location(line, column: column)), index + 1)
    }

    /// Parses the value after `key:` starting at `column` of line `lineIndex`.
    private mutating func parseValue(line lineIndex: Int, column: Int, parentIndent: Int, keyColumn: Int) -> Node? {
        let line = lines[lineIndex]
        var start = column
        while start < line.characters.count, line.characters[start] == " " { start += 1 }
        if start >= line.characters.count || line.characters[start] == "#" {
            guard let next = nextSignificant(from: cursor), lines[next].indent > parentIndent else {
                if let next = nextSignificant(from: cursor), lines[next].indent == parentIndent,
                    lines[next].characters[parentIndent] == "-"
                {
                    error(lines[next], column: parentIndent, "indent the list items under '\(String(line.characters[keyColumn..<column - 1]))'")
                    skipSameIndentListItems(indent: parentIndent)
                    return nil
                }
                error(line, column: max(column - 1, 0), "expected a value after ':'")
                return nil
            }
            cursor = next
            return parseBlock(indent: lines[next].indent, inline: nil)
        }
        return parseInlineValue(line: lineIndex, column: start, parentIndent: parentIndent)
    }

    private mutating func skipSameIndentListItems(indent: Int) {
        while let next = nextSignificant(from: cursor), lines[next].indent >= indent,
            lines[next].indent > indent || lines[next].characters[indent] == "-"
        {
            cursor = next + 1
        }
    }

    /// A value written on the same line: a scalar, a one-line list or a block-string header.
    private mutating func parseInlineValue(line lineIndex: Int, column: Int, parentIndent: Int) -> Node? {
        let line = lines[lineIndex]
        let characters = line.characters
        let here = location(line, column: column)
        let node: Node?
        switch characters[column] {
        case "|":
            return parseBlockString(line: lineIndex, column: column, parentIndent: parentIndent)
        case ">":
            error(line, column: column, "folded block strings ('>') are not supported; use '|'")
            node = nil
        case "[":
            node = parseFlowList(line: line, column: column)
        case "{":
            error(line, column: column, "'{...}' mappings are not supported; write the entries as an indented block")
            node = nil
        case "&", "*", "!":
            error(line, column: column, "anchors, aliases and tags are not supported; quote the value if '\(characters[column])' is meant literally")
            node = nil
        case "\"", "'":
            if let (text, end) = parseQuoted(line: line, column: column), expectLineEnd(line, from: end) {
                node = .scalar(
                    Node.Scalar(
                        text: text, style: characters[column] == "\"" ? .doubleQuoted : .singleQuoted,
                        location: here))
            } else {
                node = nil
            }
        default:
            node = parsePlain(line: line, column: column).map { .scalar($0) }
        }
        if let next = nextSignificant(from: cursor), lines[next].indent > parentIndent {
            error(lines[next], column: lines[next].indent, "unexpected indentation: the value was already given on line \(line.number)")
            skipMoreIndented(than: parentIndent)
        }
        return node
    }

    private mutating func parsePlain(line: Line, column: Int) -> Node.Scalar? {
        let characters = line.characters
        var end = column
        while end < characters.count {
            if characters[end] == "#", characters[end - 1] == " " { break }
            if characters[end] == "\t" {
                error(line, column: end, "tab character in a plain value; quote the value and write \\t")
                return nil
            }
            if characters[end] == ":", end + 1 < characters.count, characters[end + 1] == " " {
                error(line, column: end, "': ' inside a plain value; quote the value")
                return nil
            }
            end += 1
        }
        let text = String(characters[column..<end]).trimmingTrailingSpaces()
        return Node.Scalar(text: text, style: .plain, location: location(line, column: column))
    }

    /// Requires that only spaces or a comment follow `from`.
    private mutating func expectLineEnd(_ line: Line, from: Int) -> Bool {
        var index = from
        while index < line.characters.count, line.characters[index] == " " { index += 1 }
        if index == line.characters.count || (line.characters[index] == "#" && index > from) { return true }
        error(line, column: index, "unexpected text after the value")
        return false
    }

    /// Parses a quoted scalar; returns its text and the column after the closing quote.
    private mutating func parseQuoted(line: Line, column: Int) -> (String, Int)? {
        let characters = line.characters
        let quote = characters[column]
        var text = ""
        var index = column + 1
        while index < characters.count {
            let character = characters[index]
            if quote == "'" {
                if character == "'" {
                    if index + 1 < characters.count, characters[index + 1] == "'" {
                        text.append("'")
                        index += 2
                        continue
                    }
                    return (text, index + 1)
                }
                text.append(character)
                index += 1
                continue
            }
            if character == "\"" { return (text, index + 1) }
            if character == "\\" {
                guard index + 1 < characters.count else { break }
                let escape = characters[index + 1]
                let simple: [Character: String] = [
                    "\\": "\\", "\"": "\"", "/": "/", "n": "\n", "t": "\t",
                    "r": "\r", "0": "\0", "a": "\u{07}", "b": "\u{08}",
                    "e": "\u{1B}", "f": "\u{0C}", "v": "\u{0B}", " ": " ",
                ]
                if let replacement = simple[escape] {
                    text += replacement
                    index += 2
                    continue
                }
                let width: Int? = escape == "x" ? 2 : escape == "u" ? 4 : escape == "U" ? 8 : nil
                guard let width else {
                    error(line, column: index, "unknown escape '\\\(escape)'")
                    return nil
                }
                let digitsEnd = index + 2 + width
                guard digitsEnd <= characters.count,
                    let value = UInt32(String(characters[(index + 2)..<digitsEnd]), radix: 16),
                    let scalar = Unicode.Scalar(value)
                else {
                    error(line, column: index, "'\\\(escape)' needs \(width) hexadecimal digits naming a Unicode scalar")
                    return nil
                }
                text.unicodeScalars.append(scalar)
                index = digitsEnd
                continue
            }
            text.append(character)
            index += 1
        }
        error(line, column: column, "unterminated quoted string (quoted strings end on the line they start)")
        return nil
    }

    private mutating func parseFlowList(line: Line, column: Int) -> Node? {
        let characters = line.characters
        var items: [Node] = []
        var index = column + 1
        func skipSpaces() { while index < characters.count, characters[index] == " " { index += 1 } }
        skipSpaces()
        if index < characters.count, characters[index] == "]" {
            guard expectLineEnd(line, from: index + 1) else { return nil }
            return .sequence(Node.Sequence(items: [], location: location(line, column: column)))
        }
        while index < characters.count {
            skipSpaces()
            guard index < characters.count else { break }
            let itemStart = index
            if characters[index] == "\"" || characters[index] == "'" {
                guard let (text, end) = parseQuoted(line: line, column: index) else { return nil }
                items.append(
                    .scalar(
                        Node.Scalar(
                            text: text, style: characters[itemStart] == "\"" ? .doubleQuoted : .singleQuoted,
                            location: location(line, column: itemStart))))
                index = end
            } else {
                while index < characters.count, characters[index] != ",", characters[index] != "]" {
                    if "[{}#\t".contains(characters[index]) {
                        error(
                            line, column: index,
                            "character '\(characters[index] == "\t" ? "\\t" : String(characters[index]))' is not allowed in a one-line list item; quote the item"
                        )
                        return nil
                    }
                    index += 1
                }
                let text = String(characters[itemStart..<index]).trimmingTrailingSpaces()
                if text.isEmpty {
                    error(line, column: itemStart, "empty item in a one-line list")
                    return nil
                }
                items.append(.scalar(Node.Scalar(text: text, style: .plain, location: location(line, column: itemStart))))
            }
            skipSpaces()
            guard index < characters.count else { break }
            if characters[index] == "]" {
                guard expectLineEnd(line, from: index + 1) else { return nil }
                return .sequence(Node.Sequence(items: items, location: location(line, column: column)))
            }
            guard characters[index] == "," else {
                error(line, column: index, "expected ',' or ']' in a one-line list")
                return nil
            }
            index += 1
        }
        error(line, column: column, "unterminated one-line list (it must close with ']' on the same line)")
        return nil
    }

    /// Parses `|`, `|-` or `|+` and the more-indented lines after it.
    private mutating func parseBlockString(line lineIndex: Int, column: Int, parentIndent: Int) -> Node? {
        let line = lines[lineIndex]
        let characters = line.characters
        var chomping: Character = " "
        var index = column + 1
        if index < characters.count, characters[index] == "-" || characters[index] == "+" {
            chomping = characters[index]
            index += 1
        }
        guard expectLineEnd(line, from: index) else { return nil }
        var body: [Line] = []
        var scan = cursor
        while scan < lines.count {
            let candidate = lines[scan]
            let blank = candidate.characters.allSatisfy { $0 == " " }
            if !blank, candidate.indent <= parentIndent { break }
            body.append(candidate)
            scan += 1
        }
        cursor = scan
        guard let firstText = body.first(where: { !$0.characters.allSatisfy { $0 == " " } }) else {
            error(line, column: column, "a block string needs at least one more-indented line")
            return nil
        }
        let blockIndent = firstText.indent
        var textLines: [String] = []
        for bodyLine in body {
            if bodyLine.characters.allSatisfy({ $0 == " " }) {
                textLines.append(String(bodyLine.characters.dropFirst(min(blockIndent, bodyLine.characters.count))))
                continue
            }
            if bodyLine.indent < blockIndent {
                error(bodyLine, column: bodyLine.indent, "block string line is indented less than its first line")
                return nil
            }
            if let tab = bodyLine.characters.prefix(blockIndent + 1).firstIndex(of: "\t") {
                error(bodyLine, column: tab, "tab character in indentation; indent with spaces")
                return nil
            }
            textLines.append(String(bodyLine.characters.dropFirst(blockIndent)))
        }
        var text = textLines.joined(separator: "\n")
        switch chomping {
        case "-":
            while text.hasSuffix("\n") { text.removeLast() }
        case "+":
            text += "\n"
        default:
            while text.hasSuffix("\n") { text.removeLast() }
            text += "\n"
        }
        return .scalar(Node.Scalar(text: text, style: .block, location: location(line, column: column)))
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
