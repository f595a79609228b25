/// Why a case ended before its checks could say everything, typed: which fault it is decides the verdict (one
/// switch, in `Runner`), and the message is the case's own.
package enum CaseFault: Sendable, Hashable {
    /// The target misbehaved: no usable answer, a crash, garbage, a breach of the contract, a step it made
    /// impossible to send.
    case target(String)
    /// The target throttled the suite (429): the answer says nothing of the requirement under test.
    case throttled(String)
    /// An answer left nothing for the steps after it to use, and no failed check explains why.
    case missingCapture(String)
    /// A step cannot be sent as written here (https cannot carry it byte for byte): the case does not apply.
    case notApplicable(String)
    /// The suite itself ran out of resources: the case says nothing about the target.
    case suite(String)

    var message: String {
        switch self {
        case .target(let text), .throttled(let text), .missingCapture(let text), .notApplicable(let text), .suite(let text): text
        }
    }

    /// A case that meets two faults keeps the one that says most about the run: the suite's own over a step that
    /// does not apply over the target's; among equals, the later.
    var rank: Int {
        switch self {
        case .suite: 2
        case .notApplicable: 1
        case .target, .throttled, .missingCapture: 0
        }
    }
}
