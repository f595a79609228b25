/// A URL split the way the checks need it, without normalizing anything (no platform URL parser involved).
package struct URLParts: Sendable, Hashable {
    /// Everything before the first `?` or `#`.
    package var base: Substring
    /// Between the first `?` and the first `#`; nil when there is no `?` before any `#`.
    package var query: Substring?
    /// After the first `#`; nil when there is none.
    package var fragment: Substring?

    @inlinable
    package init(_ url: String) {
        let fragmentStart = url.firstIndex(ofByte: UInt8(ascii: "#"))
        let beforeFragment = url[..<(fragmentStart ?? url.endIndex)]
        if let questionMark = beforeFragment.firstIndex(ofByte: UInt8(ascii: "?")) {
            base = beforeFragment[..<questionMark]
            query = beforeFragment[url.utf8.index(after: questionMark)...]
        } else {
            base = beforeFragment
            query = nil
        }
        fragment = fragmentStart.map { url[url.utf8.index(after: $0)...] }
    }

    package var parameters: [QueryParameter] { query.map { QueryParameter.parse(query: $0) } ?? [] }

    /// True when every character of the query is one RFC 3986 allows there (unreserved, sub-delims, `:@/?`, `%`).
    package var queryIsURISafe: Bool {
        guard let query else { return true }
        let allowed = Self.queryBytes
        return query.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { allowed[Int($0)] } }
            ?? query.utf8.allSatisfy { allowed[Int($0)] }
    }

    /// The bytes RFC 3986 allows in a query, as a table (every opened URL's query is read byte by byte here).
    private static let queryBytes: [Bool] = (0..<256).map { byte in
        FormEncoding.isUnreserved(UInt8(byte)) || "!$&'()*+,;=:@/?%".utf8.contains(UInt8(byte))
    }
}
