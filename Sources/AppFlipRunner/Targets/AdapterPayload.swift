import AppFlipModel

/// What one request of a JSON Lines adapter contract hands the app, and how that contract reads the answer: the
/// transports (`SubprocessTarget`, `HTTPAdapterTarget`) carry any contract's requests through this.
package protocol AdapterPayload: Sendable {
    /// The request's members between `"id"` and `"scenario"`, as JSON (no braces, no commas around them).
    func appendMembers(to output: inout [UInt8])
    /// Reads the answer line to a request carrying this payload: the observation to judge, or why the line is no
    /// answer under the contract.
    func read(_ line: AnswerParser.Line, expectedID: String) -> Result<Observation, AnswerParser.AnswerError>
    /// About how many bytes `appendMembers` writes (for the line's buffer).
    var estimatedBytes: Int { get }
}

extension AdapterPayload {
    package var estimatedBytes: Int { 256 }
}
