/// Header fields in the order received or to be sent; names compare case-insensitively, values are kept as sent.
package struct HTTPHeaders: Sendable, Hashable, Sequence {
    package struct Field: Sendable, Hashable {
        package var name: String
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    package var fields: [Field]

    package init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value for `name`, case-insensitively.
    package subscript(name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// Every value for `name`, in order.
    package func values(_ name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Whether two names are the same but for case: ASCII folded byte by byte (field names are tokens, so nothing is
    /// lower-cased into a new string on every look-up); a name with other characters compares `lowercased()`.
    static func sameName(_ one: String, _ other: String) -> Bool {
        var left = one.utf8.makeIterator()
        var right = other.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil):
                return true
            case (let byte?, let wanted?) where byte < 0x80 && wanted < 0x80:
                if byte.asciiLowercased != wanted.asciiLowercased { return false }
            case (nil, let byte?) where byte < 0x80, (let byte?, nil) where byte < 0x80:
                return false  // one ends where the other goes on in ASCII: no lower-casing makes them equal
            default:
                return one.lowercased() == other.lowercased()
            }
        }
    }

    package mutating func append(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    package func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}
