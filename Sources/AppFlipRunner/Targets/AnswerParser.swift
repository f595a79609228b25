import AppFlipModel

/// Reads one answer line of the adapter contract; anything else is a target error with a precise message.
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

    package static func parse(_ line: [UInt8], expectedID: String) -> Result<HandlerAnswer, AnswerError> {
        parse(Line(line), expectedID: expectedID)
    }

    /// The answer to `request`, read by its contract: an iOS answer to a link, an Android result to an intent.
    package static func exchange(_ line: Line, for request: HandlerRequest, rawAnswer: String, log: String = "") -> TargetExchange {
        switch request.payload {
        case .link:
            switch parse(line, expectedID: request.id) {
            case .success(let answer): return TargetExchange(answer: answer, rawAnswer: rawAnswer, log: log)
            case .failure(let problem): return TargetExchange(failure: "unusable answer: \(problem.message)", rawAnswer: rawAnswer, log: log)
            }
        case .intent:
            switch ActivityAnswerParser.parse(line, expectedID: request.id) {
            case .success(let result):
                var exchange = TargetExchange(rawAnswer: rawAnswer, log: log)
                exchange.activityResult = result
                return exchange
            case .failure(let problem): return TargetExchange(failure: "unusable answer: \(problem.message)", rawAnswer: rawAnswer, log: log)
            }
        }
    }

    package static func parse(_ line: Line, expectedID: String) -> Result<HandlerAnswer, AnswerError> {
        guard String(validating: line.bytes, as: UTF8.self) != nil else {
            return .failure(AnswerError("the answer line is not valid UTF-8"))
        }
        guard let object = line.value, case .object = object else { return .failure(AnswerError(line.notAnObject)) }
        guard let id = object.member("id")?.string else {
            return .failure(AnswerError("the answer has no string \"id\""))
        }
        guard id == expectedID else {
            return .failure(AnswerError("the answer is for id \(ByteText.display(id, limit: 80)), not for the request sent (\(ByteText.display(expectedID, limit: 80)))"))
        }
        guard let action = object.member("action")?.string else {
            return .failure(AnswerError("the answer has no string \"action\" (\"open\" or \"decline\")"))
        }
        var universalLinksOnly: Bool?
        if let flag = object.member("universal_links_only") {
            guard case .bool(let value) = flag else {
                return .failure(AnswerError("\"universal_links_only\" must be true or false"))
            }
            universalLinksOnly = value
        }
        switch action {
        case "decline":
            return .success(HandlerAnswer(action: .decline, url: nil, universalLinksOnly: universalLinksOnly))
        case "open":
            guard let url = object.member("url")?.string, !url.isEmpty else {
                return .failure(AnswerError("an \"open\" answer needs a non-empty string \"url\""))
            }
            return .success(HandlerAnswer(action: .open, url: url, universalLinksOnly: universalLinksOnly))
        default:
            return .failure(AnswerError("\"action\" is \(ByteText.display(action, limit: 40)); the contract allows \"open\" or \"decline\""))
        }
    }

    package struct AnswerError: Error, Sendable {
        package var message: String
        package init(_ message: String) { self.message = message }
    }
}
