/// A document the catalog cites, named by a short key such as `RFC6749` or `AF-iOS`.
package struct SourceDocument: Sendable, Hashable {
    package var key: String
    package var title: String
    package var url: String

    package init(key: String, title: String, url: String) {
        self.key = key
        self.title = title
        self.url = url
    }
}

/// One citation: a source document and the section within it.
package struct Citation: Sendable, Hashable, CustomStringConvertible {
    package var sourceKey: String
    package var section: String

    package init(sourceKey: String, section: String) {
        self.sourceKey = sourceKey
        self.section = section
    }

    package var description: String { section.isEmpty ? sourceKey : "\(sourceKey) \(section)" }
}
