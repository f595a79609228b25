import AppFlipModel

/// Selects cases by ID glob (`*`, `?`), ID prefix, or requirement ID.
struct CaseFilter {
    var patterns: [String]

    func matches(_ conformanceCase: ConformanceCase) -> Bool {
        patterns.isEmpty || patterns.contains { pattern in
            if conformanceCase.requirements.contains(where: { $0.id == pattern }) { return true }
            if pattern.contains("*") || pattern.contains("?") { return Self.glob(Array(pattern), Array(conformanceCase.id)) }
            return conformanceCase.id == pattern || conformanceCase.id.hasPrefix(pattern.hasSuffix("/") ? pattern : pattern + "/")
        }
    }

    /// `*` matches any run of characters (including `/`), `?` one character.
    static func glob(_ pattern: [Character], _ text: [Character]) -> Bool {
        var p = 0, t = 0
        var star: Int?
        var resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "?" || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                resume = t
                p += 1
            } else if let star {
                p = star + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
