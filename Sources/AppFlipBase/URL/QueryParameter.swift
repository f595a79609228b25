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
        // is not): every judged HTTP step parses what it sent, and every link and answer is read for its parameters.
        let query = Substring(query)
        return query.utf8.withContiguousStorageIfAvailable { parse(query, bytes: $0) }
            ?? Array(query.utf8).withUnsafeBufferPointer { parse(query, bytes: $0) }
    }
}

extension QueryParameter {
    /// `parse(query:)` in one pass over the query's bytes: each piece's `=` found on the way to its `&`, its name and
    /// value cut from `query` at those offsets (both delimiters are ASCII, so every offset is a character boundary),
    /// and decoded from the bytes in place; a part with neither `%` nor `+` is its own decoding.
    fileprivate static func parse(_ query: Substring, bytes: UnsafeBufferPointer<UInt8>) -> [QueryParameter] {
        var parameters: [QueryParameter] = []
        // One allocation for a usual query (growing one by one cost about 1,100 instructions a link of four). At most 64
        // ahead: empty pieces are skipped, and a target's `&&&…` must not reserve room it never fills.
        var pieces = 1
        for byte in bytes where byte == UInt8(ascii: "&") { pieces += 1 }
        parameters.reserveCapacity(min(pieces, 64))
        let utf8 = query.utf8
        var start = 0
        while start < bytes.count {
            var end = start
            var equals: Int?
            while end < bytes.count, bytes[end] != UInt8(ascii: "&") {
                if equals == nil, bytes[end] == UInt8(ascii: "=") { equals = end }
                end += 1
            }
            if end > start {
                let nameEnd = equals ?? end
                let nameStart = utf8.index(utf8.startIndex, offsetBy: start)
                let nameEndIndex = utf8.index(nameStart, offsetBy: nameEnd - start)
                let rawValue = equals.map { equals in
                    query[utf8.index(nameEndIndex, offsetBy: 1)..<utf8.index(nameEndIndex, offsetBy: end - equals)]
                }
                parameters.append(
                    QueryParameter(
                        rawName: query[nameStart..<nameEndIndex], rawValue: rawValue,
                        name: decoded(UnsafeBufferPointer(rebasing: bytes[start..<nameEnd])),
                        value: equals.map { decoded(UnsafeBufferPointer(rebasing: bytes[($0 + 1)..<end])) } ?? []))
            }
            start = end + 1
        }
        return parameters
    }

    /// The form decoding of `bytes` (nil for an invalid escape): the bytes themselves when they hold no `%` or `+`.
    private static func decoded(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return Array(bytes) }
        return FormEncoding.decode(buffer: bytes)
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
