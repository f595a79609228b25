import AppFlipModel

/// The verdict's sentence every report opens with (report.md, report.html): the icon and label of the run's overall
/// verdict, what follows the label (a baseline's path), and why. An uncertified certification or an interrupted run
/// is said instead of the verdict it would otherwise read as.
package struct ReportHeadline: Sendable {
    package var icon: String
    /// The label: "NOT CONFORMANT", "CONFORMANT for `app-link`, with warnings", …
    package var label: ReportText
    /// What follows the label before the dash (the baseline a conformance with known failures rests on).
    package var aside: ReportText?
    package var detail: ReportText

    package init(run: RunResult, coverage: [ProfileCoverage]) {
        let total = run.results.count
        let judged = run.results.filter { $0.verdict != .skip }.count
        let tested = coverage.filter(\.isTested).map(\.profile)
        let scope: ReportText = tested.isEmpty ? "" : " for " + ReportText.joined(tested.map(ReportText.code), separator: ", ")
        let skipped = total - judged
        let ran = skipped == 0 ? "all \(total) cases" : "the \(judged) cases that ran (\(skipped) skipped)"
        aside = nil
        switch run.overall {
        case .fail where run.count(.fail) == 0:
            (icon, label) = ("❌", "NOT CONFORMANT")
            detail =
                "the baseline is out of date: \(run.baseline?.problems.count ?? 0) of its entries expired or list failures that no longer "
                + "happen (a baseline only shrinks)."
        case .fail:
            (icon, label) = ("❌", "NOT CONFORMANT")
            detail = "\(run.count(.fail)) of \(total) cases violate a MUST or MUST NOT requirement."
        case .error:
            (icon, label) = ("💥", "INCONCLUSIVE")
            detail =
                total == 0
                ? "no case ran."
                : "no requirement failed, but \(run.count(.error)) of \(total) cases ended in a target error (crash, timeout or unusable answer)."
        case .skip:
            (icon, label) = ("⏭️", "NOTHING TESTED")
            detail = "every one of the \(total) cases was skipped, so nothing was checked. This is not a pass."
        case .warn where run.knownCount > 0, .pass where run.knownCount > 0, .info where run.knownCount > 0:
            // Conformant only because the baseline accepts failures: said first, never "every MUST held".
            icon = "✅"
            label = "CONFORMANT" + scope + " with \(run.knownCount) accepted known failure\(run.knownCount == 1 ? "" : "s")"
            aside = "(baseline " + ReportText.code(run.baseline?.path ?? "") + ")"
            detail = "the other checks applied in \(ran) held" + (run.count(.warn) > 0 ? "; \(run.count(.warn)) cases break a SHOULD." : ".")
        case .warn:
            (icon, label) = ("✅", "CONFORMANT" + scope + ", with warnings")
            detail = "every MUST held in \(ran); \(run.count(.warn)) cases break a SHOULD."
        case .pass, .info:
            (icon, label) = ("✅", "CONFORMANT" + scope)
            detail = "every check applied in \(ran) held."
        }
        if run.exitStatus == .certificationIncomplete {
            (icon, label, aside) = ("⚠️", "NOT A CERTIFICATION PASS", nil)
            detail =
                "no case failed, but \(run.untestedCount) of \(total) cases were not judged, and a certification judges every case. Missing: "
                + Self.certificationShortfall(run, coverage) + "."
        }
        if run.incomplete {
            // An interrupted run never reads as a verdict on what it did not reach.
            (icon, label, aside) = ("⏸️", "INCOMPLETE", nil)
            detail =
                "the run was interrupted: \(total) cases ran" + (run.selectedCount.map { " of \($0) selected" } ?? "")
                + "; what follows judges only those, and nothing about the rest."
        }
    }

    /// The line every report opens with when the run used other case files or another catalog than the suite's own
    /// (they judge what they say, not what the suite says), or nil.
    package static func customSuite(_ provenance: Provenance) -> String? {
        guard provenance.customSuite else { return nil }
        let custom = [provenance.casesBuiltIn == false ? "case files" : nil, provenance.catalogBuiltIn == false ? "catalog" : nil].compactMap { $0 }
        return "custom suite: not a certification (the " + custom.joined(separator: " and ") + " are not the ones built into suite "
            + provenance.suiteVersion + ")"
    }

    /// What a certification run left unjudged: the profiles not tested and the reasons cases were skipped.
    static func certificationShortfall(_ run: RunResult, _ coverage: [ProfileCoverage]) -> ReportText {
        var missing: [ReportText] = coverage.filter { !$0.isTested }.map {
            "profile " + ReportText.code($0.profile) + " not tested (" + ReportText.value($0.reason, limit: 300) + ")"
        }
        for entry in coverage where entry.isTested && entry.judged < entry.total {
            missing.append(
                ReportText.code(entry.profile) + ": \(entry.total - entry.judged) skipped (" + ReportText.value(entry.reason, limit: 300) + ")")
        }
        for result in run.results where result.notJudged != nil {
            missing.append(ReportText.code(result.conformanceCase.id) + " judged nothing it tests (see Skipped)")
        }
        return ReportText.joined(missing, separator: "; ")
    }
}
