/// A node of a parsed case file: a scalar, a mapping or a sequence, each with the location where it starts.
package indirect enum Node: Sendable, Hashable {
    case scalar(Scalar)
    case mapping(Mapping)
    case sequence(Sequence)

    package var location: SourceLocation {
        switch self {
        case .scalar(let scalar): scalar.location
        case .mapping(let mapping): mapping.location
        case .sequence(let sequence): sequence.location
        }
    }

    /// A short name for the node's kind, used in type errors.
    package var kindName: String {
        switch self {
        case .scalar: "a scalar"
        case .mapping: "a mapping"
        case .sequence: "a list"
        }
    }
}

extension Node {
    /// A text value with the way it was written.
    package struct Scalar: Sendable, Hashable {
        package enum Style: Sendable, Hashable {
            case plain
            case doubleQuoted
            case singleQuoted
            case block
        }

        package var text: String
        package var style: Style
        package var location: SourceLocation

        package init(text: String, style: Style, location: SourceLocation) {
            self.text = text
            self.style = style
            self.location = location
        }
    }

    /// Keys in the order written; keys are unique (the parser rejects duplicates).
    package struct Mapping: Sendable, Hashable {
        package struct Entry: Sendable, Hashable {
            package var key: Scalar
            package var value: Node

            package init(key: Scalar, value: Node) {
                self.key = key
                self.value = value
            }
        }

        package var entries: [Entry]
        package var location: SourceLocation

        package init(entries: [Entry], location: SourceLocation) {
            self.entries = entries
            self.location = location
        }

        package subscript(key: String) -> Node? {
            entries.first { $0.key.text == key }?.value
        }
    }

    package struct Sequence: Sendable, Hashable {
        package var items: [Node]
        package var location: SourceLocation

        package init(items: [Node], location: SourceLocation) {
            self.items = items
            self.location = location
        }
    }
}
