/// The requirement catalog: every requirement by ID and every source document by key.
package struct Catalog: Sendable {
    package var requirements: [Requirement]
    package var sources: [String: SourceDocument]
    /// What a certification can cover (`programs:`), in the catalog's order; empty in a catalog that declares none.
    package var programs: [CertificationProgram] = []
    private var index: [String: Int]
    /// The catalog file as loaded, when it was loaded from one.
    package var file: SuiteFile?

    package init(requirements: [Requirement], sources: [SourceDocument]) {
        self.requirements = requirements
        self.sources = Dictionary(sources.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        self.index = Dictionary(requirements.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }

    package subscript(id: String) -> Requirement? {
        index[id].map { requirements[$0] }
    }

    /// A one-line citation list, `RFC6749 §3.1; AF-iOS "Modify" step 3`.
    package func citationText(for id: String) -> String {
        self[id]?.citations.map(\.description).joined(separator: "; ") ?? ""
    }
}
