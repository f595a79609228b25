/// What a run tested of one profile: how many of its cases were judged, how many were skipped and why.
package struct ProfileCoverage: Sendable, Hashable {
    package var profile: String
    /// Cases of the profile in the run.
    package var total: Int
    /// Cases that were judged (not skipped).
    package var judged: Int
    /// The distinct reasons the skipped cases give, most frequent first.
    package var skipReasons: [String]
    /// For an interrupted run: how many of the profile's cases were selected (nil when the run was not interrupted).
    package var selectedBeforeInterruption: Int?

    package init(profile: String, total: Int, judged: Int, skipReasons: [String]) {
        self.profile = profile
        self.total = total
        self.judged = judged
        self.skipReasons = skipReasons
    }

    /// Nothing of the profile was judged.
    package var isTested: Bool { judged > 0 }

    /// Why the profile was not tested (or was only partly tested), in one sentence.
    package var reason: String {
        if let selected = selectedBeforeInterruption, total < selected {
            return total == 0 ? "not reached: the run was interrupted" : "partly: \(total) of \(selected) cases run before the run was interrupted"
        }
        if total == 0 { return "no case of this profile was selected" }
        return skipReasons.isEmpty ? "" : skipReasons.joined(separator: "; ")
    }
}

extension RunResult {
    /// For each profile asked for, in the order given, what the run tested of it.
    package func coverage(of profiles: [String]) -> [ProfileCoverage] {
        profiles.map { profile in
            let results = self.results.filter { $0.conformanceCase.profile.rawValue == profile }
            // A case not applicable to this target (a condition it does not meet) was judged: it is not missing.
            let skipped = results.filter(\.isUntested)
            var counts: [String: Int] = [:]
            for result in skipped { counts[result.message ?? "skipped", default: 0] += 1 }
            let reasons = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
            var coverage = ProfileCoverage(profile: profile, total: results.count, judged: results.count - skipped.count, skipReasons: reasons)
            if incomplete { coverage.selectedBeforeInterruption = selected[profile] }
            return coverage
        }
    }
}
