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
        let lowered = name.lowercased()
        return fields.first { $0.name.lowercased() == lowered }?.value
    }

    /// Every value for `name`, in order.
    package func values(_ name: String) -> [String] {
        let lowered = name.lowercased()
        return fields.filter { $0.name.lowercased() == lowered }.map(\.value)
    }

    package mutating func append(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    package func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}
