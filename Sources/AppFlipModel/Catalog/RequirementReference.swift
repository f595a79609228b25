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
        // On UTF-8 bytes, read where they are (every row of report.html asks this of its requirements): A-Z and 0-9
        // in non-empty parts, at least two, joined by single hyphens.
        var id = id
        return id.withUTF8 { bytes in
            var parts = 1
            var partLength = 0
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    partLength += 1
                case UInt8(ascii: "-"):
                    guard partLength > 0 else { return false }
                    parts += 1
                    partLength = 0
                default:
                    return false
                }
            }
            return parts >= 2 && partLength > 0
        }
    }

    package var description: String { "\(id) \(level.rawValue)" }
}
