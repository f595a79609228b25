import AppFlipModel

/// The case format's rule for the steps of an app a contract drives (the activity's intents, the native app's
/// commands): only checks of its scope judge such a step, and checks of its scope judge nothing else. Each contract's
/// rule is declared in its folder; a step rule reads them all.
package struct AppStepRule: Sendable {
    /// The scope of the checks that judge only these steps.
    let scope: CheckScope
    /// Whether a step is one of these.
    let sends: @Sendable (Step.Action) -> Bool
    /// Whether the checks that judge the app's process (`survives`) judge these steps too.
    let judgesTheProcess: Bool
    /// The error for a check of another scope on such a step, by check key.
    let notJudging: @Sendable (String) -> String
    /// The error for a check of this scope on another step, by check key.
    let judgingElsewhere: @Sendable (String) -> String

    /// Every contract's rule, in the order they are checked.
    static let all = [IntentRecipe.stepRule, NativeStep.stepRule]
}
