/// A node of a parsed case file: a scalar, a mapping or a sequence, each with the location where it starts.
public indirect enum Node: Sendable, Hashable {
    case scalar(Scalar)
    case mapping(Mapping)
    case sequence(Sequence)

    public var location: SourceLocation {
        switch self {
        case .scalar(let scalar): scalar.location
        case .mapping(let mapping): mapping.location
        case .sequence(let sequence): sequence.location
        }
    }

    /// A short name for the node's kind, used in type errors.
    public var kindName: String {
        switch self {
        case .scalar: "a scalar"
        case .mapping: "a mapping"
        case .sequence: "a list"
        }
    }
}

extension Node {
    /// A text value with the way it was written.
    public struct Scalar: Sendable, Hashable {
        public enum Style: Sendable, Hashable {
            case plain
            case doubleQuoted
            case singleQuoted
            case block
        }

        public var text: String
        public var style: Style
        public var location: SourceLocation

        public init(text: String, style: Style, location: SourceLocation) {
            self.text = text
            self.style = style
            self.location = location
        }
    }

    /// Keys in the order written; keys are unique (the parser rejects duplicates).
    public struct Mapping: Sendable, Hashable {
        public struct Entry: Sendable, Hashable {
            public var key: Scalar
            public var value: Node

            public init(key: Scalar, value: Node) {
                self.key = key
                self.value = value
            }
        }

        public var entries: [Entry]
        public var location: SourceLocation

        public init(entries: [Entry], location: SourceLocation) {
            self.entries = entries
            self.location = location
        }

        public subscript(key: String) -> Node? {
            entries.first { $0.key.text == key }?.value
        }
    }

    public struct Sequence: Sendable, Hashable {
        public var items: [Node]
        public var location: SourceLocation

        public init(items: [Node], location: SourceLocation) {
            self.items = items
            self.location = location
        }
    }
}
