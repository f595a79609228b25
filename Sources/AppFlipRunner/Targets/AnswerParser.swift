import AppFlipBase
import AppFlipModel

/// Reads one answer line of a JSON Lines adapter contract as its contract says (`AdapterPayload.read`); anything else
/// is a target error with a precise message.
package enum AnswerParser {
    /// One answer line, read as JSON once: its `id` (to match it to a request) and its answer come from that reading.
    package struct Line {
        package let bytes: [UInt8]
        /// The JSON value the line holds, or nil when it holds none.
        package let value: JSONReader.Value?
        /// Set when the line is JSON but repeats a member name: why it cannot be read as one answer.
        package let repeatedMember: String?

        package init(_ bytes: [UInt8]) {
            self.bytes = bytes
            do {
                value = try JSONReader.read(bytes)
                repeatedMember = nil
            } catch {
                value = nil
                repeatedMember = error.isRepeatedMember ? error.message : nil
            }
        }

        /// Why the line is not an answer object.
        package var notAnObject: String {
            repeatedMember.map { "the answer line is ambiguous: \($0)" } ?? "the answer line is not a JSON object"
        }

        /// The line's `id`, if it is a JSON object with a string id.
        package var id: String? { value?.member("id")?.string }
    }

    /// The answer to `request`, read by its contract (`AdapterPayload.read`).
    package static func exchange(_ line: Line, for request: HandlerRequest, rawAnswer: String, log: String = "") -> TargetExchange {
        switch request.payload.read(line, expectedID: request.id) {
        case .success(let observation): return TargetExchange(observation: observation, rawAnswer: rawAnswer, log: log)
        case .failure(let problem):
            var exchange = TargetExchange(failure: "unusable answer: \(problem.message)", rawAnswer: rawAnswer, log: log)
            exchange.answerUnusable = true
            return exchange
        }
    }

    package struct AnswerError: Error, Sendable {
        package var message: String
        package init(_ message: String) { self.message = message }
    }
}
