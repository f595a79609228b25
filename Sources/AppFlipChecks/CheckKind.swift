import AppFlipModel
import AppFlipSyntax

/// One kind of expectation a case states under `expect`, whole: the model's ``Check`` (its key, scope, expected
/// sentence, judgement and traits) plus how it reads itself from a case and its row in FORMAT.md.
///
/// Each kind lives in its own file and is listed once in ``CheckRegistry``; the case loader, the judge and the
/// format documentation all go through the registry, so a kind cannot be known to one and not the others.
package protocol CheckKind: Check {
    /// Its row in FORMAT.md.
    static var documentation: CheckDocumentation { get }
    /// Reads the value written under ``key``. Every problem is a diagnostic; nil (or an empty list) means nothing
    /// usable was read, and the loader then refuses the case: a check never vanishes silently.
    static func read(_ node: Node, reader: inout NodeReader) -> [Self]?
    /// How FORMAT.md names the check's form that judges an opened URL's content (`code: present`), or nil when no
    /// form does: FORMAT.md's list is held against these.
    static var openedURLForm: String? { get }
}

extension CheckKind {
    package static var openedURLForm: String? { nil }
}
