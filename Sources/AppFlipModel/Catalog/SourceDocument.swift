/// A document the catalog cites, named by a short key such as `RFC6749` or `AF-iOS`.
public struct SourceDocument: Sendable, Hashable {
    public var key: String
    public var title: String
    public var url: String

    public init(key: String, title: String, url: String) {
        self.key = key
        self.title = title
        self.url = url
    }
}

/// One citation: a source document and the section within it.
public struct Citation: Sendable, Hashable, CustomStringConvertible {
    public var sourceKey: String
    public var section: String

    public init(sourceKey: String, section: String) {
        self.sourceKey = sourceKey
        self.section = section
    }

    public var description: String { section.isEmpty ? sourceKey : "\(sourceKey) \(section)" }
}
