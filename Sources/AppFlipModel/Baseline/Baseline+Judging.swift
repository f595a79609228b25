/// How a baseline meets a run's results: which failures it accepts, which of its entries no longer match a
/// failure (the failure is fixed: remove the entry) and which have expired. The last two fail the run.
extension Baseline {
    package struct Problem: Sendable, Hashable {
        package enum Kind: String, Sendable, Hashable {
            /// The entry's expiry date has passed: the failure it covered counts again.
            case expired
            /// What the entry lists ran and did not fail: the entry must go, so the baseline only shrinks.
            case nowPasses = "now-passes"
        }

        package var entry: Entry
        package var kind: Kind

        package var message: String {
            switch kind {
            case .expired:
                "baseline entry for \(entry.subject) expired on \(entry.expires) (\(entry.location.file):\(entry.location.line)); its failures count again"
            case .nowPasses:
                "baseline entry for \(entry.subject) lists a failure that no longer happens (\(entry.location.file):\(entry.location.line)): remove it"
            }
        }
    }

    package struct Judgement: Sendable, Hashable {
        /// The results, each failure the baseline accepts marked with the entries that accept it.
        package var results: [CaseResult]
        package var problems: [Problem]
        /// Entries nothing in this run exercised (their case or requirement did not run): neither accepted nor stale.
        package var unexercised: [Entry]
    }

    /// The entries that accept `result`'s failure on `today`: a case entry for a failed or errored case, or
    /// requirement entries covering every failing check of a failed case. Empty when the failure stands.
    package func accepting(_ result: CaseResult, today: String) -> [Entry] {
        let live = entries.filter { !$0.isExpired(on: today) }
        guard result.verdict == .fail || result.verdict == .error, result.suiteFault == nil, result.configurationProblem == nil else { return [] }
        if let entry = live.first(where: { entry in
            if case .conformanceCase(let id) = entry.subject { return result.conformanceCase.isNamed(id) }
            return false
        }) {
            return [entry]
        }
        guard result.verdict == .fail else { return [] }
        let failing = Set(result.checks.filter { $0.isApplicable && $0.verdict == .fail }.map(\.requirement.id))
        let covering = live.filter { entry in
            if case .requirement(let id) = entry.subject { return failing.contains(id) }
            return false
        }
        return !failing.isEmpty && covering.count == failing.count ? covering : []
    }

    package func judge(_ results: [CaseResult], today: String) -> Judgement {
        var marked = results
        for index in marked.indices {
            marked[index].knownBy = accepting(marked[index], today: today)
        }
        var problems: [Problem] = []
        var unexercised: [Entry] = []
        for entry in entries {
            if entry.isExpired(on: today) {
                problems.append(Problem(entry: entry, kind: .expired))
                continue
            }
            let ran: [CaseResult]
            let failed: Bool
            switch entry.subject {
            case .conformanceCase(let id):
                ran = results.filter { $0.conformanceCase.isNamed(id) && $0.verdict != .skip }
                failed = ran.contains { $0.verdict == .fail || $0.verdict == .error }
            case .requirement(let id):
                ran = results.filter { result in result.verdict != .skip && result.requirements.contains { $0.id == id } }
                failed = ran.contains { result in result.checks.contains { $0.requirement.id == id && $0.isApplicable && $0.verdict == .fail } }
            }
            if ran.isEmpty {
                unexercised.append(entry)
            } else if !failed {
                problems.append(Problem(entry: entry, kind: .nowPasses))
            }
        }
        return Judgement(results: marked, problems: problems, unexercised: unexercised)
    }
}
