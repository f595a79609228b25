import AppFlipModel
import AppFlipReporting

/// Two runs compared case by case (`appflip-conformance diff OLD NEW`): what newly fails, what was fixed, what
/// changed verdict otherwise, which failures are still there but observed differently, and which cases came or
/// went. A known failure (accepted by a baseline) counts as neither failing nor passing: it is "known".
package struct ResultsDiff: Sendable {
    package struct Change: Sendable, Hashable {
        package var id: String
        package var old: String?
        package var new: String?
        /// For a newly failing case: its failing checks, `REQUIREMENT LEVEL: expected …; observed …`.
        package var detail: [String]
    }

    package var regressed: [Change] = []
    package var fixed: [Change] = []
    package var changed: [Change] = []
    /// Cases failing in both runs whose failing checks observed something else.
    package var evidenceChanged: [Change] = []
    package var added: [Change] = []
    package var removed: [Change] = []
    /// Requirements whose verdict changed, `AF-LINK-010: pass → fail`.
    package var requirements: [Change] = []

    /// Whether the new run is worse: a case or a requirement that now fails or errs and did not before.
    package var hasRegression: Bool {
        !regressed.isEmpty || requirements.contains { Self.isFailing($0.new) && !Self.isFailing($0.old) }
    }

    static func isFailing(_ verdict: String?) -> Bool { verdict == "fail" || verdict == "error" }

    /// A case's verdict as the diff sees it: `known` for a failure a baseline accepted.
    static func effective(_ entry: ResultsDocument.CaseEntry) -> String {
        entry.knownFailure == nil ? entry.verdict : "known"
    }

    static func failingChecks(_ entry: ResultsDocument.CaseEntry) -> [String] {
        entry.checks.filter { $0.verdict == "fail" }.map { "\($0.requirement) \($0.level): expected \($0.expected); observed \($0.observed ?? "")" }
    }

    package init(old: ResultsDocument, new: ResultsDocument) {
        let before = Dictionary(old.cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(new.cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // A case renamed since (its entry lists the old ID under `formerly`) is the same case, not one removed and
        // one added.
        let renamed = Dictionary(
            new.cases.flatMap { entry in (entry.formerly ?? []).map { ($0, entry.id) } }, uniquingKeysWith: { first, _ in first })
        for entry in new.cases {
            let now = Self.effective(entry)
            guard let previous = before[entry.id] ?? (entry.formerly ?? []).lazy.compactMap({ before[$0] }).first else {
                let change = Change(id: entry.id, old: nil, new: now, detail: Self.failingChecks(entry))
                if Self.isFailing(now) { regressed.append(change) } else { added.append(change) }
                continue
            }
            let was = Self.effective(previous)
            let change = Change(id: entry.id, old: was, new: now, detail: Self.failingChecks(entry))
            if Self.isFailing(now) && !Self.isFailing(was) {
                regressed.append(change)
            } else if Self.isFailing(was) && !Self.isFailing(now) && now != "known" {
                fixed.append(change)
            } else if was != now {
                changed.append(change)
            } else if Self.isFailing(now) {
                let observedBefore = previous.checks.filter { $0.verdict == "fail" }.map { "\($0.requirement): \($0.observed ?? "")" }
                let observedNow = entry.checks.filter { $0.verdict == "fail" }.map { "\($0.requirement): \($0.observed ?? "")" }
                let messageChanged = now == "error" && previous.message != entry.message
                if observedBefore != observedNow || messageChanged {
                    let detail =
                        messageChanged
                        ? ["was: \(previous.message ?? "")", "now: \(entry.message ?? "")"]
                        : ["was: " + observedBefore.joined(separator: "; "), "now: " + observedNow.joined(separator: "; ")]
                    evidenceChanged.append(Change(id: entry.id, old: was, new: now, detail: detail))
                }
            }
        }
        for entry in old.cases where after[entry.id] == nil && renamed[entry.id] == nil {
            removed.append(Change(id: entry.id, old: Self.effective(entry), new: nil, detail: []))
        }
        let requirementsBefore = Dictionary(old.requirements.map { ($0.id, $0.verdict) }, uniquingKeysWith: { first, _ in first })
        for requirement in new.requirements {
            let was = requirementsBefore[requirement.id]
            if let was, was != requirement.verdict {
                requirements.append(Change(id: requirement.id, old: was, new: requirement.verdict, detail: []))
            }
        }
    }
}
