import AppFlipModel
import AppFlipRedaction

/// What happened when one request was sent to a target.
package struct TargetExchange: Sendable {
    /// What the target's well-formed answer shows, read by its contract (`AdapterPayload.read`).
    package var observation: Observation?
    /// Why there is no usable answer (crash, timeout, garbage): the case's `error` message.
    package var failure: String?
    /// The raw answer line as received (at most `rawAnswerKept` bytes), for evidence: redacted whole, then cut to
    /// `answerExcerptLimit` when recorded.
    package var rawAnswer: String
    /// The target's log output (bounded), for evidence.
    package var log: String
    /// Set when a persistent handler had written output after its previous answer: that request's fault.
    package var previousRequestFault: String?
    /// Set when the exchange failed for want of the suite's own resources, not through the target.
    package var suiteFault = false
    /// Set when the target wrote an answer its contract cannot read (`failure` says why): it answered, unusably.
    package var answerUnusable = false
    /// Set when the target, started and healthy, died or closed its output while handling this request (not a
    /// hang the suite ended, not a start that failed): what it did, for a contract that gives a crash a result of
    /// its own (a process that dies under an activity hands its caller RESULT_CANCELED).
    package var crash: String?
    /// Set when a persistent handler's reply began with lines that answer nothing, more than one: output left from
    /// before this request (a flood), which the session answers by replacing the handler and sending again.
    var outOfStep = false

    package init(
        observation: Observation? = nil, failure: String? = nil, rawAnswer: String = "", log: String = "",
        previousRequestFault: String? = nil
    ) {
        self.observation = observation
        self.failure = failure
        self.rawAnswer = rawAnswer
        self.log = log
        self.previousRequestFault = previousRequestFault
    }

    /// Whether the target gave a well-formed answer under its contract.
    package var isAnswered: Bool { observation != nil }

    /// The exchange made unusable after its answer was read (output past the answer, a flood): `failure` says why, and
    /// no answer of any contract is left to judge.
    mutating func refuse(_ failure: String) {
        self.failure = failure
        observation = nil
    }

    /// How much of a raw answer an exchange keeps, and how much of it (redacted) the evidence shows.
    package static let rawAnswerKept = 64 * 1024
    package static let answerExcerptLimit = 4096

    /// A raw answer as kept: its first `rawAnswerKept` bytes, then a truncation mark (which redaction reads as a cut
    /// edge, so a secret cut there shows no prefix).
    package static func raw(_ bytes: some Collection<UInt8>) -> String {
        guard bytes.count > rawAnswerKept else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes.prefix(rawAnswerKept), as: UTF8.self) + Excerpt.truncationMark(dropped: bytes.count - rawAnswerKept)
    }
}
