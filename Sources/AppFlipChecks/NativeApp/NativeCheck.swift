import AppFlipModel

/// A check of a native-client step: the app's answers and the requests the test authorization server received.
package protocol NativeCheck: ObservationKindCheck where Observed == NativeObservation {}

extension NativeCheck {
    package static func observed(in observation: Observation) -> NativeObservation? {
        if case .native(let native) = observation { native } else { nil }
    }
    package static var otherKind: String { "not a native-client step" }
}

extension NativeObservation {
    /// Whether a check of the native scope applies to `observation`: only to a native-client step, and not, unless the
    /// check judges only the request, to one whose redirect never reached the app.
    static func applicability(of check: some Check, to observation: Observation) -> String? {
        guard case .native(let native) = observation else {
            return "only a native-client step has an app and a test authorization server to judge"
        }
        if let undelivered = native.undelivered, !check.traits.judgesOnlyTheRequest { return undeliveredReason(undelivered) }
        return nil
    }
}
