import AppFlipDefects
import AppFlipModel

/// Requirement by requirement, which shipped defects fail (or, for a SHOULD, warn under) it: from the catalog's
/// declarations (`Conformance/DETECTION.md`) or from what a detection run observed.
struct DetectionTable {
    /// The requirements detection counts: MUST / MUST NOT (or SHOULD / SHOULD NOT) that a machine judges (not the ones
    /// a reviewer attests), in catalog order.
    var requirements: [Requirement]
    /// Each requirement's defects, by requirement ID.
    var defects: [String: [String]]

    /// The requirements at `levels` a machine judges.
    static func automated(_ catalog: Catalog, levels: Set<Level>) -> [Requirement] {
        catalog.requirements.filter { levels.contains($0.level) && $0.notObservable == nil }
    }

    static let mustLevels: Set<Level> = [.must, .mustNot]
    static let shouldLevels: Set<Level> = [.should, .shouldNot]

    /// What the catalog declares: each defect under the requirements it names at `levels`.
    static func declared(_ catalog: Catalog, levels: Set<Level>, entries: [Defect] = DefectCatalog.all) -> DetectionTable {
        var defects: [String: [String]] = [:]
        for entry in entries where entry.role == .defect {
            for id in (levels == mustLevels ? entry.fails : entry.warns) { defects[id, default: []].append(entry.id) }
        }
        return DetectionTable(requirements: automated(catalog, levels: levels), defects: defects.mapValues { Array(Set($0)).sorted() })
    }

    /// What a run observed: each defect under the requirements its run failed (or warned under) at `levels`.
    static func observed(_ catalog: Catalog, levels: Set<Level>, outcomes: [DetectionOutcome]) -> DetectionTable {
        var defects: [String: [String]] = [:]
        for outcome in outcomes where outcome.defect.role == .defect {
            for id in (levels == mustLevels ? outcome.failed : outcome.warned) { defects[id, default: []].append(outcome.defect.id) }
        }
        return DetectionTable(requirements: automated(catalog, levels: levels), defects: defects.mapValues { Array(Set($0)).sorted() })
    }

    /// The counted requirements some defect fails (or warns under).
    var detected: [Requirement] { requirements.filter { !(defects[$0.id] ?? []).isEmpty } }
    /// The counted requirements no defect shows.
    var undetected: [Requirement] { requirements.filter { (defects[$0.id] ?? []).isEmpty } }

    /// One line a requirement: `ID (LEVEL, profile): defect, defect` or `…: none`.
    var consoleLines: [String] {
        requirements.map { requirement in
            let names = defects[requirement.id] ?? []
            return "  \(requirement.id) (\(requirement.level.rawValue), \(requirement.profile)): "
                + (names.isEmpty ? "NO DEFECT" : names.joined(separator: ", "))
        }
    }
}
