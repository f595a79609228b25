import Testing

@testable import AppFlipChecks
@testable import AppFlipModel

/// A check typed by the observation it judges gets only that kind; any other kind is not applicable, with the
/// reason its family gives (written once, in `ObservationKindChecks.swift`).
@Suite("Checks typed by what they judge")
struct ObservationKindCheckTests {
    let context = Template.Context(
        configuration: RunConfiguration(link: "https://app.example/flip", clientID: "cid"),
        generated: GeneratedValues(seed: 1, caseID: "x"))

    @Test("Another kind of observation is not applicable, with the family's reason")
    func otherKinds() {
        let unreachable = Observation.unreachable("refused")
        #expect(StatusCheck(codes: [200], classes: []).evaluate(unreachable, in: context) == .notApplicable(reason: "not an HTTP response"))
        #expect(FinishedCheck().evaluate(unreachable, in: context) == .notApplicable(reason: "not an Android activity's result"))
        #expect(VerifierCheck(expectation: .present).evaluate(unreachable, in: context) == .notApplicable(reason: "not a native-client step"))
    }

    @Test("The families' extractors take their own kind only")
    func extractors() {
        let unreachable = Observation.unreachable("refused")
        #expect(StatusCheck.observed(in: unreachable) == nil)
        #expect(FinishedCheck.observed(in: unreachable) == nil)
        #expect(VerifierCheck.observed(in: unreachable) == nil)
        #expect(StatusCheck.otherKind != FinishedCheck.otherKind && FinishedCheck.otherKind != VerifierCheck.otherKind)
    }
}
