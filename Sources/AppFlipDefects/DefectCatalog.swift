/// Every shipped defect and variant, by family: what `appflip-conformance detection` runs and
/// `Conformance/DETECTION.md` lists.
package enum DefectCatalog {
    package static let all: [Defect] = ServerDefects.all + LinkHandlerDefects.all + AndroidHandlerDefects.all + NativeClientDefects.all

    /// The family's entries named `name` (a native client's may come in both redirect modes).
    package static func named(_ name: String, in family: Defect.Family) -> [Defect] {
        all.filter { $0.family == family && $0.name == name }
    }

    /// `  NAME: summary` a line, each name once, sorted: the list a program's `--help` shows.
    package static func usageList(_ family: Defect.Family) -> String {
        var seen = Set<String>()
        return all.filter { $0.family == family && seen.insert($0.name).inserted }.sorted { $0.name < $1.name }
            .map { "  \($0.name): \($0.summary)\($0.role == .variant ? " (correct: a variant)" : "")" }.joined(separator: "\n")
    }
}
