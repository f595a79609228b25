/// What the scanner hands its tokens to, in document order: a start tag with its attributes, an end tag, text.
///
/// A reader says beforehand what it would ignore, and the scanner never makes those strings: the attributes of a
/// tag it does not read, and text at a point where it reads none. Its answer must depend only on the tokens it was
/// already given, so that skipping leaves its result what reading every token would make it.
package protocol HTMLTokenReader {
    /// Whether the next text token would change what the reader collects.
    var readsText: Bool { get }
    /// Whether the attributes of a start tag of this name (lower-cased) would change what the reader collects.
    func readsAttributes(of name: String) -> Bool
    /// A start tag: its lower-cased name and, when `readsAttributes(of:)` said so, its attributes (lower-cased
    /// names, entity-decoded values); an empty list otherwise.
    mutating func start(_ name: String, _ attributes: [(name: String, value: String)])
    mutating func end(_ name: String)
    mutating func text(_ text: String)
}
