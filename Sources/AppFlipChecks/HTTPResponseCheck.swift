import AppFlipModel

/// A check of an HTTP response (status, headers, body).
package protocol HTTPResponseCheck: ObservationKindCheck where Observed == HTTPObservation {}

extension HTTPResponseCheck {
    package static func observed(in observation: Observation) -> HTTPObservation? {
        if case .http(let response) = observation { response } else { nil }
    }
    package static var otherKind: String { "not an HTTP response" }
}
