import AppFlipBase
import AppFlipModel

/// Reads one answer line of the link handler's contract: `{"id": …, "action": "open" | "decline", "url": …,
/// "universal_links_only": …}`; anything else is a target error with a precise message.
package enum LinkAnswerParser {
    package static func parse(_ line: [UInt8], expectedID: String) -> Result<HandlerAnswer, AnswerParser.AnswerError> {
        parse(AnswerParser.Line(line), expectedID: expectedID)
    }

    package static func parse(_ line: AnswerParser.Line, expectedID: String) -> Result<HandlerAnswer, AnswerParser.AnswerError> {
        guard String(validating: line.bytes, as: UTF8.self) != nil else {
            return .failure(AnswerParser.AnswerError("the answer line is not valid UTF-8"))
        }
        guard let object = line.value, case .object = object else { return .failure(AnswerParser.AnswerError(line.notAnObject)) }
        guard let id = object.member("id")?.string else {
            return .failure(AnswerParser.AnswerError("the answer has no string \"id\""))
        }
        guard id == expectedID else {
            return .failure(
                AnswerParser.AnswerError(
                    "the answer is for id \(ByteText.display(id, limit: 80)), not for the request sent (\(ByteText.display(expectedID, limit: 80)))"))
        }
        guard let action = object.member("action")?.string else {
            return .failure(AnswerParser.AnswerError("the answer has no string \"action\" (\"open\" or \"decline\")"))
        }
        var universalLinksOnly: Bool?
        if let flag = object.member("universal_links_only") {
            guard case .bool(let value) = flag else {
                return .failure(AnswerParser.AnswerError("\"universal_links_only\" must be true or false"))
            }
            universalLinksOnly = value
        }
        switch action {
        case "decline":
            return .success(HandlerAnswer(action: .decline, url: nil, universalLinksOnly: universalLinksOnly))
        case "open":
            guard let url = object.member("url")?.string, !url.isEmpty else {
                return .failure(AnswerParser.AnswerError("an \"open\" answer needs a non-empty string \"url\""))
            }
            return .success(HandlerAnswer(action: .open, url: url, universalLinksOnly: universalLinksOnly))
        default:
            return .failure(
                AnswerParser.AnswerError("\"action\" is \(ByteText.display(action, limit: 40)); the contract allows \"open\" or \"decline\""))
        }
    }

}
