import Foundation
import AppFlipModel

/// Small formatting helpers shared by the report writers.
enum ReportFormatting {
    /// Seconds with at most three decimals and no grouping: `0.012`.
    static func seconds(_ value: Double) -> String {
        let milliseconds = Int((max(0, value) * 1000).rounded())
        let whole = milliseconds / 1000
        let fraction = milliseconds % 1000
        return "\(whole).\(fraction < 10 ? "00" : fraction < 100 ? "0" : "")\(fraction)"
    }

    /// `app-link/redirect-uri` → `app-link.redirect-uri`.
    static func className(_ group: String) -> String {
        group.replacingOccurrences(of: "/", with: ".")
    }

    /// `AF-LINK-005 MUST NOT`.
    static func requirementList(_ result: CaseResult) -> String {
        requirementList(result.conformanceCase, checks: result.checks)
    }

    /// `requirementList` from checks already read.
    static func requirementList(_ conformanceCase: ConformanceCase, checks: [CheckResult]) -> String {
        CaseResult.requirements(of: conformanceCase, checks: checks).map(\.description).joined(separator: ", ")
    }

    static func location(_ conformanceCase: ConformanceCase) -> String {
        "\(conformanceCase.location.file):\(conformanceCase.location.line)"
    }

    /// The groups in first-seen order, with their results.
    static func groups(_ results: [CaseResult]) -> [(name: String, results: [CaseResult])] {
        var order: [String] = []
        var byGroup: [String: [CaseResult]] = [:]
        for result in results {
            let group = result.conformanceCase.group
            if byGroup[group] == nil { order.append(group) }
            byGroup[group, default: []].append(result)
        }
        return order.map { ($0, byGroup[$0] ?? []) }
    }
}
