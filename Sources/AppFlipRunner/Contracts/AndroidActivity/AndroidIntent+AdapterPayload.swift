import AppFlipModel

/// An Android activity's request hands the app the intent Google starts it with (`"intent": {…}, "caller": {…}`).
extension AndroidIntent: AdapterPayload {
    package func read(_ line: AnswerParser.Line, expectedID: String) -> Result<Observation, AnswerParser.AnswerError> {
        ActivityAnswerParser.parse(line, expectedID: expectedID).map(Observation.activity)
    }
}

extension HandlerRequest {
    package init(id: String, intent: AndroidIntent, scenario: Scenario) {
        self.init(id: id, payload: intent, scenario: scenario)
    }

    /// What an Android handler is sent first, before any case: an intent of an action no console names, with no
    /// extras and no caller (`preflight`).
    package static let androidPreflight = HandlerRequest(
        id: "preflight", intent: AndroidIntent(action: "preflight.invalid", package: "preflight.invalid", extras: [], caller: nil), scenario: .consent
    )
}

extension TargetExchange {
    /// The Android activity's result, when the handler gave a well-formed one.
    package var activityResult: ActivityResult? {
        get {
            if case .activity(let result)? = observation { return result }
            return nil
        }
        set { observation = newValue.map(Observation.activity) }
    }
}
