/// A requirement ID with the level a case claims for it, written `AF-LINK-005 MUST NOT`.
package struct RequirementReference: Sendable, Hashable, CustomStringConvertible {
    package var id: String
    package var level: Level

    package init(id: String, level: Level) {
        self.id = id
        self.level = level
    }

    /// Parses `ID LEVEL`; returns nil when the text is not of that form.
    package init?(parsing text: String) {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count >= 2, let level = Level(rawValue: words.dropFirst().joined(separator: " ")) else { return nil }
        let id = String(words[0])
        guard RequirementReference.isWellFormedID(id) else { return nil }
        self.init(id: id, level: level)
    }

    /// IDs are upper-case words and digits joined by hyphens: `AF-LINK-005`.
    package static func isWellFormedID(_ id: String) -> Bool {
        let parts = id.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts.allSatisfy { part in
            !part.isEmpty && part.allSatisfy { ($0.isASCII && $0.isUppercase) || ($0.isASCII && $0.isNumber) }
        }
    }

    package var description: String { "\(id) \(level.rawValue)" }
}
