/// The requirement catalog: every requirement by ID and every source document by key.
public struct Catalog: Sendable {
    public var requirements: [Requirement]
    public var sources: [String: SourceDocument]
    private var index: [String: Int]
    /// The catalog file as loaded, when it was loaded from one.
    public var file: SuiteFile?

    public init(requirements: [Requirement], sources: [SourceDocument]) {
        self.requirements = requirements
        self.sources = Dictionary(sources.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        self.index = Dictionary(requirements.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }

    public subscript(id: String) -> Requirement? {
        index[id].map { requirements[$0] }
    }

    /// A one-line citation list, `RFC6749 §3.1; AF-iOS "Modify" step 3`.
    public func citationText(for id: String) -> String {
        self[id]?.citations.map(\.description).joined(separator: "; ") ?? ""
    }
}
