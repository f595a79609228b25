import AppFlipModel

/// Reads one answer line of the adapter contract; anything else is a target error with a precise message.
package enum AnswerParser {
    package static func parse(_ line: [UInt8], expectedID: String) -> Result<HandlerAnswer, AnswerError> {
        guard String(validating: line, as: UTF8.self) != nil else {
            return .failure(AnswerError("the answer line is not valid UTF-8"))
        }
        guard let object = try? JSONReader.read(line), case .object = object else {
            return .failure(AnswerError("the answer line is not a JSON object"))
        }
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

    /// The `id` of an answer line, if the line is a JSON object with a string id.
    package static func answerID(_ line: [UInt8]) -> String? {
        (try? JSONReader.read(line))?.member("id")?.string
    }

    package struct AnswerError: Error, Sendable {
        package var message: String
        init(_ message: String) { self.message = message }
    }
}
