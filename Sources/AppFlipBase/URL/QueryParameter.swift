/// One `name=value` pair of a query, raw as written and decoded once.
package struct QueryParameter: Sendable, Hashable {
    package var rawName: Substring
    /// Nil when the pair has no `=`.
    package var rawValue: Substring?
    /// Nil when the name has an invalid percent-escape.
    package var name: [UInt8]?
    /// Nil when the value has an invalid percent-escape; empty when there is no `=` or nothing after it.
    package var value: [UInt8]?

    /// The decoded name as text, for comparisons with ASCII parameter names.
    package var nameText: String? { name.flatMap { String(validating: $0, as: UTF8.self) } }

    /// Splits a query on `&` (empty pieces are skipped, as browsers do) and decodes each pair once.
    package static func parse<Text: StringProtocol>(query: Text) -> [QueryParameter] where Text.SubSequence == Substring {
        // Read as one concrete type, so the byte searches below are specialized (a generic call from another module
        // is not): every judged HTTP step parses what it sent.
        Substring(query).pieces(separatedBy: UInt8(ascii: "&"), omittingEmpty: true).map { piece in
            let name: Substring
            let value: Substring?
            if let equals = piece.firstIndex(ofByte: UInt8(ascii: "=")) {
                name = piece[..<equals]
                value = piece[piece.utf8.index(after: equals)...]
            } else {
                name = piece
                value = nil
            }
            let decodedValue: [UInt8]? = if let value { FormEncoding.decode(value) } else { [] }
            return QueryParameter(rawName: name, rawValue: value, name: FormEncoding.decode(name), value: decodedValue)
        }
    }
}

extension Array where Element == QueryParameter {
    /// Every parameter whose decoded name is `name`.
    package func all(named name: String) -> [QueryParameter] {
        let bytes = [UInt8](name.utf8)
        return filter { $0.name == bytes }
    }

    /// The decoded value of `name` as text when it appears exactly once and decodes to UTF-8; nil otherwise.
    package func singleText(named name: String) -> String? {
        let found = all(named: name)
        guard found.count == 1, let bytes = found[0].value else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}
