import AppFlipSyntax
import Foundation

/// Table expansion: `table:` rows and `${row.COLUMN}` substitution.
extension CaseLoader {
    struct TableRow {
        var values: [String: String]
        var location: SourceLocation
    }

    /// Reads `table:`: the name of a built-in table, or a list of rows (mappings of column to value).
    mutating func tableRows(_ node: Node) -> [TableRow]? {
        if case .scalar(let scalar) = node {
            guard scalar.text == "allowed_flip_uris" else {
                reader.error(at: scalar.location, "unknown built-in table '\(scalar.text)'; the built-in table is 'allowed_flip_uris' (columns: key, uri), or write the rows as a list")
                return nil
            }
            return AllowedFlipURIs.all.map { TableRow(values: ["key": AllowedFlipURIs.key(for: $0), "uri": $0], location: scalar.location) }
        }
        guard let sequence = reader.sequence(node, "'table'") else { return nil }
        guard !sequence.items.isEmpty else {
            reader.error(at: sequence.location, "'table' has no rows")
            return nil
        }
        guard sequence.items.count <= Self.maximumCases else {
            reader.error(at: sequence.location, "'table' has \(sequence.items.count) rows; the limit is \(Self.maximumCases)")
            return nil
        }
        var rows: [TableRow] = []
        var columns: [String]?
        for item in sequence.items {
            guard let mapping = reader.mapping(item, "a table row") else { return nil }
            var values: [String: String] = [:]
            for entry in mapping.entries {
                guard let scalar = reader.scalar(entry.value, "table cell '\(entry.key.text)'") else { return nil }
                values[entry.key.text] = scalar.text
            }
            let names = mapping.entries.map(\.key.text)
            if let columns, Set(columns) != Set(names) {
                reader.error(at: mapping.location, "this row's columns (\(names.joined(separator: ", "))) differ from the first row's (\(columns.joined(separator: ", ")))")
                return nil
            }
            columns = names
            rows.append(TableRow(values: values, location: mapping.location))
        }
        return rows
    }

    /// Replaces `${row.NAME}` in every key and scalar; unknown columns become diagnostics.
    mutating func substitute(row: [String: String], in node: Node) -> Node {
        switch node {
        case .scalar(let scalar):
            return .scalar(substitute(row: row, in: scalar))
        case .sequence(var sequence):
            sequence.items = sequence.items.map { substitute(row: row, in: $0) }
            return .sequence(sequence)
        case .mapping(var mapping):
            mapping.entries = mapping.entries.compactMap { entry in
                if entry.key.text == "table" { return nil }
                return Node.Mapping.Entry(key: substitute(row: row, in: entry.key), value: substitute(row: row, in: entry.value))
            }
            return .mapping(mapping)
        }
    }

    mutating func substitute(row: [String: String], in scalar: Node.Scalar) -> Node.Scalar {
        guard scalar.text.contains("${row.") else { return scalar }
        var result = ""
        var rest = Substring(scalar.text)
        while let start = rest.range(of: "${row.") {
            result += rest[..<start.lowerBound]
            guard let close = rest[start.upperBound...].firstIndex(of: "}") else {
                result += rest[start.lowerBound...]
                rest = ""
                break
            }
            let name = String(rest[start.upperBound..<close])
            if let value = row[name] {
                result += value
            } else {
                let hint = Suggestion.closest(to: name, among: Array(row.keys)).map { " (did you mean '${row.\($0)}'?)" } ?? ""
                reader.error(at: scalar.location, "the table has no column '\(name)'\(hint); columns: \(row.keys.sorted().joined(separator: ", "))")
            }
            rest = rest[rest.index(after: close)...]
        }
        result += rest
        var copy = scalar
        copy.text = result
        return copy
    }
}
