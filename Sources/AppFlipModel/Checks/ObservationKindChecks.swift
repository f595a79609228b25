/// Checks that judge one kind of observation receive that kind (an associated type): the dispatch from `Observation`,
/// and the "not applicable" for every other kind, is written once here, not in each check.
package protocol ObservationKindCheck: Check {
    /// The kind of observation the check judges.
    associatedtype Observed
    /// That kind's observation, or nil when `observation` is of another kind.
    static func observed(in observation: Observation) -> Observed?
    /// Why an observation of another kind is not applicable.
    static var otherKind: String { get }
    /// Judges an observation of the check's kind.
    func evaluate(_ observed: Observed, in context: Template.Context) -> CheckOutcome
}

extension ObservationKindCheck {
    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        guard let observed = Self.observed(in: observation) else { return .notApplicable(reason: Self.otherKind) }
        return evaluate(observed, in: context)
    }
}

/// A check of a native-client step: the app's answers and the requests the test authorization server received.
package protocol NativeCheck: ObservationKindCheck where Observed == NativeObservation {}

extension NativeCheck {
    package static func observed(in observation: Observation) -> NativeObservation? {
        if case .native(let native) = observation { native } else { nil }
    }
    package static var otherKind: String { "not a native-client step" }
}

/// A check of an HTTP response (status, headers, body).
package protocol HTTPResponseCheck: ObservationKindCheck where Observed == HTTPObservation {}

extension HTTPResponseCheck {
    package static func observed(in observation: Observation) -> HTTPObservation? {
        if case .http(let response) = observation { response } else { nil }
    }
    package static var otherKind: String { "not an HTTP response" }
}

/// A check of what an Android activity gave back.
package protocol ActivityCheck: ObservationKindCheck where Observed == ActivityResult {}

extension ActivityCheck {
    package static func observed(in observation: Observation) -> ActivityResult? {
        if case .activity(let result) = observation { result } else { nil }
    }
    package static var otherKind: String { "not an Android activity's result" }
}
