import AppFlipDefects
import AppFlipEvidence
import AppFlipReporting
import Foundation

/// What one defect's run showed, and whether that is what the catalog says it must show.
struct DetectionOutcome: Sendable {
    var defect: Defect
    /// The MUST / MUST NOT requirements the run failed, and the SHOULD ones it warned under.
    var failed: Set<String> = []
    var warned: Set<String> = []
    /// Cases that ended in error, each with its message.
    var errors: [String] = []
    var exitCode: Int32?
    var seconds: Double = 0
    /// Why the run could not say anything (it never ran, took too long, wrote no results).
    var problems: [String] = []
    /// The run's cases, when it wrote results.
    var cases = 0

    /// The failures and warnings the catalog expects here: none where the defect's condition is not met.
    func expected(conditionMet: Bool) -> (fails: Set<String>, warns: Set<String>) {
        conditionMet ? (defect.fails, defect.warns) : ([], [])
    }

    /// How this outcome differs from what is expected: each difference a sentence; empty when it matches.
    func differences(conditionMet: Bool) -> [String] {
        var found = problems
        let (fails, warns) = expected(conditionMet: conditionMet)
        if problems.isEmpty, cases == 0 { found.append("the run judged no case") }
        if !fails.subtracting(failed).isEmpty { found.append("not failed: \(fails.subtracting(failed).sorted().joined(separator: ", "))") }
        if !failed.subtracting(fails).isEmpty {
            found.append("failed, but not named: \(failed.subtracting(fails).sorted().joined(separator: ", "))")
        }
        if !warns.subtracting(warned).isEmpty { found.append("not warned: \(warns.subtracting(warned).sorted().joined(separator: ", "))") }
        if !warned.subtracting(warns).isEmpty {
            found.append("warned, but not named: \(warned.subtracting(warns).sorted().joined(separator: ", "))")
        }
        if !errors.isEmpty { found.append("\(errors.count) case(s) in error: " + errors.prefix(3).joined(separator: "; ")) }
        return found
    }

    /// Reads the run's results.json.
    mutating func read(results url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else {
            if problems.isEmpty { problems.append("the run wrote no results.json (exit \(exitCode.map(String.init) ?? "none"))") }
            return
        }
        let document = try ResultsDocument.parse(Data(contentsOf: url))
        cases = document.cases.count
        for entry in document.cases {
            for check in entry.checks {
                if check.verdict == "fail" { failed.insert(check.requirement) }
                if check.verdict == "warn" { warned.insert(check.requirement) }
            }
            if entry.verdict == "error" { errors.append("\(entry.id): \((entry.message ?? "").prefix(160))") }
        }
    }
}
