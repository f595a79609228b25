import AppFlipModel

/// Checks that judge one kind of observation receive that kind (an associated type): the dispatch from `Observation`,
/// and the "not applicable" for every other kind, is written once here, not in each check.
package protocol ObservationKindCheck: CheckKind {
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
