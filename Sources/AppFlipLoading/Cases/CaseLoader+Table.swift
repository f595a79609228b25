import AppFlipBase
import AppFlipModel
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
                reader.error(
                    at: scalar.location,
                    "unknown built-in table '\(scalar.text)'; the built-in table is 'allowed_flip_uris' (columns: key, uri), or write the rows as a list"
                )
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
            // Rows nearly always name their columns in the first row's order: the sets are made only when not.
            if let columns, columns != names, Set(columns) != Set(names) {
                reader.error(
                    at: mapping.location,
                    "this row's columns (\(names.joined(separator: ", "))) differ from the first row's (\(columns.joined(separator: ", ")))")
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
        // On UTF-8 bytes: every scalar of every row passes here, and most hold no variable at all.
        let marker = Self.rowMarker
        guard Self.mentionsRow(scalar.text) else { return scalar }
        let bytes = Array(scalar.text.utf8)
        guard var start = Self.find(marker, in: bytes, from: 0) else { return scalar }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 32)
        var position = 0
        while true {
            result.append(contentsOf: bytes[position..<start])
            let nameStart = start + marker.count
            guard let close = bytes[nameStart...].firstIndex(of: UInt8(ascii: "}")) else {
                position = start
                break
            }
            let name = String(decoding: bytes[nameStart..<close], as: UTF8.self)
            if let value = row[name] {
                result.append(contentsOf: value.utf8)
            } else {
                let hint = Suggestion.closest(to: name, among: Array(row.keys)).map { " (did you mean '${row.\($0)}'?)" } ?? ""
                reader.error(at: scalar.location, "the table has no column '\(name)'\(hint); columns: \(row.keys.sorted().joined(separator: ", "))")
            }
            position = close + 1
            guard let next = Self.find(marker, in: bytes, from: position) else { break }
            start = next
        }
        result.append(contentsOf: bytes[position...])
        var copy = scalar
        copy.text = String(decoding: result, as: UTF8.self)
        return copy
    }

    private static let rowMarker = Array("${row.".utf8)

    /// Whether any scalar under `node` (keys included) names a table column.
    static func mentionsRow(_ node: Node) -> Bool {
        switch node {
        case .scalar(let scalar): mentionsRow(scalar.text)
        case .sequence(let sequence): sequence.items.contains(where: mentionsRow)
        case .mapping(let mapping): mapping.entries.contains { mentionsRow(.scalar($0.key)) || mentionsRow($0.value) }
        }
    }

    /// Whether a mapping under `node` has a `table` key, which substituting a row drops at every level.
    static func holdsTableKey(_ node: Node) -> Bool {
        switch node {
        case .scalar: false
        case .sequence(let sequence): sequence.items.contains(where: holdsTableKey)
        case .mapping(let mapping): mapping.entries.contains { $0.key.text == "table" || holdsTableKey($0.value) }
        }
    }

    /// Whether `text` names a table column, read in place (no copy) where the string is contiguous UTF-8.
    private static func mentionsRow(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { find(rowMarker, in: $0, from: 0) != nil }
            ?? (find(rowMarker, in: Array(text.utf8), from: 0) != nil)
    }

    /// The first index at or after `from` where `needle` starts in `haystack`.
    private static func find<Bytes: RandomAccessCollection<UInt8>>(_ needle: [UInt8], in haystack: Bytes, from: Int) -> Int?
    where Bytes.Index == Int {
        guard let first = needle.first, haystack.count - from >= needle.count else { return nil }
        var index = from
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
