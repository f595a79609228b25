import AppFlipBase
import AppFlipModel

/// Selects cases by ID glob (`*`, `?`), ID prefix, or requirement ID.
struct CaseFilter {
    var patterns: [String]

    func matches(_ conformanceCase: ConformanceCase) -> Bool {
        patterns.isEmpty
            || patterns.contains { pattern in
                if conformanceCase.requirements.contains(where: { $0.id == pattern }) { return true }
                if pattern.contains("*") || pattern.contains("?") { return Glob.matches(pattern, conformanceCase.id) }
                return conformanceCase.id == pattern || conformanceCase.id.hasPrefix(pattern.hasSuffix("/") ? pattern : pattern + "/")
            }
    }
}
