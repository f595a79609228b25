import AppFlipModel

/// The top of the page: the certification, the verdict and what a reviewer must know with it (configuration problems,
/// suite errors, unusable targets, the baseline, attestations), then each profile's counts with a bar.
extension HTMLReport {
    func verdictSection(_ headline: ReportHeadline, coverage: [ProfileCoverage]) -> String {
        // The verdict and the exit code from one tally of the results.
        let tally = run.tally
        var text = ""
        if let custom = ReportHeadline.customSuite(run.provenance) {
            text += "<p class=\"certification\"><strong>\(HTMLText.text(custom))</strong></p>\n"
        }
        for outcome in run.programOutcomes {
            text += "<p class=\"certification\"><strong>\(HTMLText.text(outcome.headline))</strong></p>\n"
        }
        let suiteFaults = run.results.filter { $0.suiteFault != nil }
        if let first = suiteFaults.first?.suiteFault {
            text +=
                "<p class=\"verdict v-error\" id=\"verdict\"><strong>Verdict: SUITE ERROR</strong> — the suite itself ran out of resources for "
                + "\(suiteFaults.count) of \(run.results.count) cases (\(HTMLText.text(HTMLText.cut(first, limit: 200)))). Those cases judged nothing and "
                + "blame nothing on the target; rerun with fewer <code>--jobs</code> or a higher <code>ulimit -n</code>. No verdict is given for this run.</p>\n"
        } else {
            text +=
                "<p class=\"verdict v-\(RunResult.overall(tally).rawValue)\" id=\"verdict\"><strong>Verdict: \(headline.label.html)</strong>"
                + (headline.aside.map { " " + $0.html } ?? "") + " — " + headline.detail.html + "</p>\n"
        }
        text += "<div class=\"notes\">\n"
        for problem in run.configurationProblems {
            let spoiled = run.results.filter { $0.configurationProblem == problem }.count
            text +=
                "<p><strong>Configuration problem</strong> (\(spoiled) cases could not be judged): \(HTMLText.text(HTMLText.cut(problem, limit: 500)))</p>\n"
        }
        if run.incomplete {
            text += "<p><strong>This run is incomplete:</strong> it was interrupted; only the cases listed here ran, and no verdict is given.</p>\n"
        }
        for (target, count) in run.unreachableTargets {
            text += "<p><strong>Target unreachable:</strong> \(HTMLText.text(target.reason)) — \(count) case\(count == 1 ? "" : "s") not sent.</p>\n"
        }
        if run.notJudgedCount > 0 || run.count(.skip) > 0 {
            text +=
                "<p><strong>Not judged:</strong> \(run.count(.skip)) skipped, \(run.notJudgedCount) judged nothing they test "
                + "(<a href=\"#skipped\">why</a>).</p>\n"
        }
        if let baseline = run.baseline {
            text +=
                "<p><strong>Baseline</strong> <code>\(HTMLText.text(baseline.path))</code> (\(baseline.entries) entries): \(run.knownCount) failure"
                + "\(run.knownCount == 1 ? "" : "s") accepted as known (not counted above; see <a href=\"#known\">Known failures</a>).</p>\n"
            for problem in baseline.problems { text += "<p>✗ \(HTMLText.text(problem.message))</p>\n" }
        }
        if !run.attestations.isEmpty {
            let failing = run.attestations.filter { $0.verdict == .fail }.map(\.requirement)
            text +=
                "<p><strong>Attested by hand</strong> (not judged by the suite, not in the counts or the exit code): \(run.attestations.count) requirement"
                + "\(run.attestations.count == 1 ? "" : "s")"
                + (failing.isEmpty
                    ? ", none attested as failing"
                    : "; attested as failing: "
                        + HTMLText.text(failing.joined(separator: ", "))) + " (<a href=\"#attestations\">see</a>).</p>\n"
        }
        text +=
            "<p>Exit code: \(RunResult.exitStatus(tally).rawValue). Target: \(HTMLText.text(run.provenance.target))"
            + (run.provenance.targetLabel.map { " (\(HTMLText.text($0)))" } ?? "") + ".</p>\n</div>\n"
        return text
    }

    /// Each profile's verdict, counts and a bar of them (pass, info, warn, fail, error, skip), and the totals.
    func profileSection(_ coverage: [ProfileCoverage]) -> String {
        let shown: [Verdict] = [.pass, .info, .warn, .fail, .error, .skip]
        var text = "<section id=\"profiles\">\n<h2>Profiles</h2>\n<table>\n<thead><tr><th>Profile</th><th>Verdict</th><th>Cases</th>"
        text +=
            shown.map { "<th>\(Self.verdictIcons[$0] ?? "") \($0.rawValue)</th>" }.joined() + "<th>Counts</th><th>Tested</th></tr></thead>\n<tbody>\n"
        for entry in coverage {
            let results = run.results.filter { $0.conformanceCase.profile.rawValue == entry.profile }
            let overall = RunResult(results: results, catalog: run.catalog, provenance: run.provenance).overall
            // One pass: each result counted under its verdict, known failures not at all.
            var counts = [Int](repeating: 0, count: shown.count)
            for result in results {
                let verdict = result.verdict
                if let column = shown.firstIndex(of: verdict), !result.isKnown { counts[column] += 1 }
            }
            let tested =
                !entry.isTested
                ? "not tested: " + HTMLText.text(HTMLText.cut(entry.reason, limit: 300))
                : entry.judged < entry.total ? "partly: \(entry.total - entry.judged) skipped" : "yes"
            text +=
                "<tr"
                + Self.filterAttributes(
                    verdicts: results.isEmpty ? [] : [overall], profiles: [entry.profile], levels: [],
                    search: [entry.profile]) + ">"
            text +=
                "<td><code>\(HTMLText.text(entry.profile))</code></td><td class=\"tag \(overall.rawValue)\">"
                + (results.isEmpty ? "—" : "\(Self.verdictIcons[overall] ?? "") \(overall.rawValue)") + "</td><td class=\"n\">\(entry.total)</td>"
            text +=
                counts.map { "<td class=\"n\">\($0)</td>" }.joined() + "<td>" + bar(zip(shown, counts).map { ($0, $1) })
                + "</td><td>\(tested)</td></tr>\n"
        }
        return text + "</tbody>\n</table>\n</section>\n"
    }

    /// A bar of counts, one rectangle per verdict, widths in proportion, with a text alternative.
    func bar(_ counts: [(Verdict, Int)]) -> String {
        let total = max(1, counts.reduce(0) { $0 + $1.1 })
        let width = 160.0
        var x = 0.0
        var rects = ""
        for (verdict, count) in counts where count > 0 {
            let w = width * Double(count) / Double(total)
            rects += "<rect class=\"\(verdict.rawValue)\" x=\"\(Self.number(x))\" y=\"0\" width=\"\(Self.number(w))\" height=\"12\"/>"
            x += w
        }
        let label = counts.filter { $0.1 > 0 }.map { "\($0.1) \($0.0.rawValue)" }.joined(separator: ", ")
        return
            "<svg class=\"bar\" width=\"160\" height=\"12\" viewBox=\"0 0 160 12\" role=\"img\" aria-label=\"\(label.isEmpty ? "no cases" : label)\">"
            + rects + "</svg>"
    }

    /// A coordinate with at most two decimals.
    static func number(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        return hundredths % 100 == 0 ? String(hundredths / 100) : String(Double(hundredths) / 100)
    }
}
