import AppFlipModel

/// One step as a contract sends it: the case, where the step stands in it, and the values its templates resolve to.
package struct AdapterStep {
    package let conformanceCase: ConformanceCase
    package let action: Step.Action
    /// The prefix of the step's messages ("round 2, step 1: "), empty for a case of one step sent once.
    package let label: String
    package let generated: GeneratedValues
    package let stepIndex: Int
    package let repetition: Int
    /// Whether this sending's exchange goes into the evidence (the first of a repeated step).
    package let recordEvidence: Bool
    package let context: Template.Context

    /// An opaque id for the request: the case ID would let a "test mode" adapter answer from a lookup table.
    package var requestID: String { generated.requestID(step: stepIndex, repetition: repetition) }
}
