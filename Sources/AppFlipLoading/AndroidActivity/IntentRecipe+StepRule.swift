import AppFlipChecks
import AppFlipModel

extension IntentRecipe {
    /// Only an activity's checks judge an intent step, and they judge nothing else.
    static let stepRule = AppStepRule(
        scope: .activity, sends: { if case .intent = $0 { true } else { false } }, judgesTheProcess: true,
        notJudging: {
            "'\($0)' does not judge an Android activity's result (its checks: \(CheckRegistry.keys(in: .activity).joined(separator: ", ")))"
        },
        judgingElsewhere: { "'\($0)' judges an Android activity's result: use it in an 'intent' step" })
}
