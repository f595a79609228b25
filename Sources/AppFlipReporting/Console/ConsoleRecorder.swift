import AppFlipBase
import AppFlipModel
import Foundation

/// What `run` says on the console while and after it runs (a `RunRecorder`): a line per failing case once its verdict
/// is final (the runner reports a case when nothing later can change it; the same target error once, then counted),
/// the skips by profile and reason, the target and configuration problems, the root causes, the verdict line and where
/// the reports went.
package final class ConsoleRecorder: RunRecorder {
    private let console: Console
    private let quiet: Bool
    private let display: RunProgress
    private let printed = PrintedCases()
    private let baseline: Baseline?
    private let today: String
    private let plan = Locked(RunPlan(cases: 0, profiles: [], target: "", jobs: 0))

    /// `today` (YYYY-MM-DD) is the day a baseline's entries are judged against.
    package init(
        console: Console, verbosity: RunProgress.Verbosity, color: RunProgress.ColorChoice, total: Int, baseline: Baseline?, today: String
    ) {
        self.console = console
        self.quiet = verbosity == .quiet
        self.baseline = baseline
        self.today = today
        display = RunProgress(
            console: console, total: total, verbosity: verbosity,
            color: color.enabled(isTerminal: console.errIsTerminal, environment: ProcessInfo.processInfo.environment))
    }

    package func record(_ event: RunEvent) {
        switch event {
        case .started(let plan):
            self.plan.withLock { $0 = plan }
            announce(plan)
        case .caseFinished(let result): finished(result)
        case .casesEnded: casesEnded()
        case .ended(let run): afterCases(run)
        case .recorded(let outcome):
            let plan = plan.withLock { $0 }
            verdict(outcome, selected: plan.cases, profiles: plan.profiles)
        }
    }

    private func announce(_ plan: RunPlan) {
        guard !quiet else { return }
        console.err("running \(plan.cases) cases (\(plan.profiles.joined(separator: ", "))) against \(plan.target) with \(plan.jobs) jobs")
    }

    /// A case's verdict is final (called on a worker's judging thread, or at the end of the run).
    private func finished(_ result: CaseResult) {
        // Skips are summed up after the run, one line per profile and reason, not one per case.
        guard result.verdict != .pass, result.verdict != .skip, result.configurationProblem == nil, result.unreachableTarget == nil else {
            display.finished(result, line: nil)
            return
        }
        // For every failing case: no copy of the result without a baseline, no line built that --quiet will not print.
        var result = result
        if let baseline { result.knownBy = baseline.accepting(result, today: today) }
        // The same target error in case after case (a handler that answers nothing usable) is said once.
        let repeated = printed.repeatsError(result)
        display.finished(result, line: quiet || repeated ? nil : Self.progressLine(result))
    }

    /// The cases have run: the progress line closes, each repeated error is counted.
    private func casesEnded() {
        display.finish()
        guard !quiet else { return }
        for (message, more) in printed.repeatedErrors {
            display.print("ERROR \(more) more case\(more == 1 ? "" : "s") with the same error: \(message)", verdict: .error)
        }
    }

    /// What the run adds after its verdicts: attestations, baseline problems, skips, unreachable targets and
    /// configuration problems.
    private func afterCases(_ run: RunResult) {
        for attestation in run.attestations where !quiet { console.err("attested by hand (not judged by the suite): \(attestation.summary)") }
        for problem in run.baseline?.problems ?? [] { console.err("BASELINE: \(problem.message)") }
        if !quiet { for line in Self.skipLines(run.results) { display.print(line, verdict: .skip) } }
        for (target, count) in run.unreachableTargets {
            console.err("TARGET UNREACHABLE: \(target.reason) — \(count) case\(count == 1 ? "" : "s") not sent")
        }
        for problem in run.configurationProblems {
            let spoiled = run.results.filter { $0.configurationProblem == problem }.count
            console.err("CONFIGURATION PROBLEM: \(problem) (\(spoiled) cases)")
        }
    }

    /// The root causes and the verdict line (printed even when the reports could not be written: the console is
    /// then the only record), the certification line, and the reports' problem or where they went.
    private func verdict(_ outcome: RecordingOutcome, selected: Int, profiles: [String]) {
        let run = outcome.run
        let counts =
            Verdict.allCases.map { "\(run.count($0)) \($0.rawValue)" }.joined(separator: ", ")
            + (run.baseline == nil ? "" : ", \(run.knownCount) known (baseline)")
        let untested = run.coverage(of: profiles).filter { !$0.isTested }.map { "\($0.profile) (\($0.reason))" }
        let scope = untested.isEmpty ? "" : "; NOT TESTED: " + untested.joined(separator: ", ")
        if !quiet { for line in RootCauseLines.lines(run) { console.out(line) } }
        let word = Self.word(run, ran: run.results.count, selected: selected)
        console.out("\(run.results.count) cases: \(counts) — \(word)\(scope) (exit \(outcome.exitStatus.rawValue))")
        if run.provenance.certification { console.out(.suite(ProgramOutcome.headline(run.programOutcomes))) }
        if let custom = ReportHeadline.customSuite(run.provenance) { console.out(.suite(custom.prefix(1).uppercased() + custom.dropFirst())) }
        if let problem = outcome.problem {
            console.err("error: the reports were not written (the old ones, if any, are untouched): \(problem)")
            return
        }
        guard let reports = outcome.reports else { return }
        let written = ReportSet.names.map { reports + "/" + $0 }.joined(separator: ", ")
        console.out(
            "reports: \(written) (written in \(String(format: "%.1f", outcome.milliseconds)) ms; cases ran in \(String(format: "%.2f", run.provenance.duration)) s)"
        )
    }

    private static func word(_ run: RunResult, ran: Int, selected: Int) -> String {
        switch run.exitStatus {
        case .conformant: "conformant"
        case .nonConformant: "NOT conformant"
        case .inconclusive:
            run.provenance.adapterFiles.contains(where: \.changed) ? "inconclusive: an adapter changed while the cases ran" : "inconclusive"
        case .usage: "invalid"
        case .nothingTested: "NOTHING TESTED: every case was skipped"
        case .configurationRejected: "CONFIGURATION PROBLEM: cases could not be judged"
        case .reportsNotWritten: "reports not written"
        case .suiteFailure: "SUITE ERROR: the suite ran out of resources; no verdict (lower --jobs, or raise ulimit -n)"
        case .certificationIncomplete:
            run.untestedCount > 0
                ? "NOT A CERTIFICATION PASS: \(run.untestedCount) cases were not judged (see the report)"
                : "NOT A CERTIFICATION PASS: see each program's line above"
        case .interrupted: "INTERRUPTED: \(ran) of \(selected) cases ran; reports are marked incomplete"
        }
    }

    /// `SKIP 12 authorize cases: the authorize endpoint is not configured`, once per profile and reason.
    package static func skipLines(_ results: [CaseResult]) -> [ConsoleText] {
        var order: [String] = []
        var counts: [String: Int] = [:]
        for result in results where result.verdict == .skip {
            let key = "\(result.conformanceCase.profile.rawValue)\u{0}\(result.message ?? "skipped")"
            if counts[key] == nil { order.append(key) }
            counts[key, default: 0] += 1
        }
        return order.map { key in
            let parts = key.split(separator: "\u{0}", maxSplits: 1).map(String.init)
            let count = counts[key] ?? 0
            return "SKIP \(count) \(parts[0]) case\(count == 1 ? "" : "s"): \(parts.count > 1 ? parts[1] : "")" as ConsoleText
        }
    }

    /// A failing case's lines: every value in them (its ID, message, expectations and observations) kept on its line.
    package static func progressLine(_ result: CaseResult) -> ConsoleText {
        let location = "\(result.conformanceCase.location.file):\(result.conformanceCase.location.line)"
        var head: ConsoleText = "\(result.isKnown ? "KNOWN " : "")\(result.verdict.rawValue.uppercased()) \(result.conformanceCase.id) (\(location))"
        if let entry = result.knownBy.first { head = head + " accepted by the baseline until \(entry.expires): \(entry.reason)" }
        let log = adapterLog(result.evidence.stderr)
        if result.verdict == .error || result.verdict == .skip {
            return log.isEmpty ? head + ": \(result.message ?? "")" : .lines([head + ": \(result.message ?? "")"] + log)
        }
        let findings = result.findings.map { finding -> ConsoleText in
            "  \(finding.requirement): expected \(finding.expected); observed \(finding.observed)"
        }
        return .lines([head] + findings + log)
    }

    /// The adapter's standard error beside the failure it came with, so a CI log says why without the report (an
    /// adapter that staging refused showed only "expected -1, observed -2"): its last lines, each cut short; already
    /// redacted and bounded in the evidence.
    package static func adapterLog(_ stderr: String, lines count: Int = 3, width: Int = 200) -> [ConsoleText] {
        let lines = stderr.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !lines.isEmpty else { return [] }
        let shown = lines.suffix(count).map { $0.count > width ? String($0.prefix(width)) + "…" : $0 }
        return ["  adapter's stderr" + (lines.count > count ? " (last \(count) of \(lines.count) lines; all in report.md)" : "") + ":"]
            + shown.map { "    \($0)" }
    }
}

/// The target errors the console said once, and how many cases repeated each.
private final class PrintedCases: Sendable {
    /// Target errors by message, and the messages in the order first seen: each is printed once, then counted.
    private let errors = Locked((counts: [String: Int](), order: [String]()))

    /// True when the case is a target error whose message an earlier case already printed (it is then counted).
    func repeatsError(_ result: CaseResult) -> Bool {
        guard result.verdict == .error, !result.isKnown, let message = result.message else { return false }
        return errors.withLock { errors in
            errors.counts[message, default: 0] += 1
            if errors.counts[message] == 1 { errors.order.append(message) }
            return (errors.counts[message] ?? 0) > 1
        }
    }

    /// Each error message printed once that more cases repeated, with how many more.
    var repeatedErrors: [(message: String, more: Int)] {
        errors.withLock { errors in
            errors.order.compactMap { message in (errors.counts[message] ?? 0) > 1 ? (message, (errors.counts[message] ?? 0) - 1) : nil }
        }
    }
}
