import AppFlipModel

/// A check of what an Android activity gave back.
package protocol ActivityCheck: ObservationKindCheck where Observed == ActivityResult {}

extension ActivityCheck {
    package static func observed(in observation: Observation) -> ActivityResult? {
        if case .activity(let result) = observation { result } else { nil }
    }
    package static var otherKind: String { "not an Android activity's result" }
}

extension ActivityResult {
    /// Whether a check of the activity scope applies to `observation`: only to an activity's result, and, unless the
    /// check judges an unfinished activity, only to one that finished.
    static func applicability(of check: some Check, to observation: Observation) -> String? {
        guard case .activity(let result) = observation else {
            return "only an Android App Flip step has an activity result to judge"
        }
        if !result.finished, !check.traits.judgesUnfinishedActivity {
            return "the activity did not finish, so Google has no result yet ('finished' judges that)"
        }
        return nil
    }
}
