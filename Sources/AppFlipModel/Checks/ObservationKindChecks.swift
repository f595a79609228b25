/// Checks that judge one kind of observation receive that kind: the dispatch from `Observation` (and the "not
/// applicable" for every other kind) is written once here, not in each check.

/// A check of a native-client step: the app's answers and the requests the test authorization server received.
package protocol NativeCheck: Check {
    func evaluate(_ native: NativeObservation, in context: Template.Context) -> CheckOutcome
}

extension NativeCheck {
    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        guard case .native(let native) = observation else { return .notApplicable(reason: "not a native-client step") }
        return evaluate(native, in: context)
    }
}

/// A check of an HTTP response (status, headers, body).
package protocol HTTPResponseCheck: Check {
    func evaluate(_ response: HTTPObservation, in context: Template.Context) -> CheckOutcome
}

extension HTTPResponseCheck {
    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        guard case .http(let response) = observation else { return .notApplicable(reason: "not an HTTP response") }
        return evaluate(response, in: context)
    }
}

/// A check of what an Android activity gave back.
package protocol ActivityCheck: Check {
    func evaluate(_ result: ActivityResult, in context: Template.Context) -> CheckOutcome
}

extension ActivityCheck {
    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        guard case .activity(let result) = observation else { return .notApplicable(reason: "not an Android activity's result") }
        return evaluate(result, in: context)
    }
}
