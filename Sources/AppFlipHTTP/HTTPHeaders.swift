import AppFlipBase

/// Header fields in the order received or to be sent; names compare case-insensitively, values are kept as sent.
package struct HTTPHeaders: Sendable, Hashable, Sequence {
    package struct Field: Sendable, Hashable {
        package var name: String { didSet { key = name.lowercased() } }
        package var value: String
        /// The name lower-cased, made once: what a look-up compares (every answer of a walk is asked for a dozen
        /// fields, each compared with every field).
        package private(set) var key: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
            self.key = name.lowercased()
        }

        /// Whether this field's name is `key`, a name lower-cased: lengths first, most names differ in theirs.
        func hasKey(_ key: String) -> Bool { self.key.utf8.count == key.utf8.count && self.key == key }
    }

    package var fields: [Field]

    package init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value for `name`, case-insensitively.
    package subscript(name: String) -> String? {
        let key = name.lowercased()
        return fields.first { $0.hasKey(key) }?.value
    }

    /// Every value for `name`, in order.
    package func values(_ name: String) -> [String] {
        // Read in place (every response is asked for several fields): no filtered copy of the fields first.
        let key = name.lowercased()
        var found: [String] = []
        for field in fields where field.hasKey(key) { found.append(field.value) }
        return found
    }

    /// Whether two names are the same but for case, as their `lowercased()` compare (what `Field.key` holds): ASCII folded byte by byte (field names are tokens, so nothing is
    /// lower-cased into a new string on every look-up); a name with other characters compares `lowercased()`.
    package static func sameName(_ one: String, _ other: String) -> Bool {
        let folded = one.utf8.withContiguousStorageIfAvailable { (left: UnsafeBufferPointer<UInt8>) -> Bool? in
            other.utf8.withContiguousStorageIfAvailable { (right: UnsafeBufferPointer<UInt8>) -> Bool? in asciiFoldedEqual(left, right) } ?? nil
        }
        if let folded, let answer = folded { return answer }
        return one.lowercased() == other.lowercased()
    }

    /// True or false when the ASCII bytes decide it; nil when a byte outside ASCII leaves it to `lowercased()`.
    private static func asciiFoldedEqual(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool? {
        let shorter = Swift.min(left.count, right.count)
        var index = 0
        while index < shorter {
            let (byte, wanted) = (left[index], right[index])
            if byte >= 0x80 || wanted >= 0x80 { return nil }
            if byte != wanted, byte.asciiLowercased != wanted.asciiLowercased { return false }
            index += 1
        }
        if left.count == right.count { return true }
        // One ends where the other goes on: in ASCII no lower-casing makes them equal.
        return (left.count > shorter ? left[shorter] : right[shorter]) < 0x80 ? false : nil
    }

    package mutating func append(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    package func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}
