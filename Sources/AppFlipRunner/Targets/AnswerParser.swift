import AppFlipModel
import Foundation

/// Reads one answer line of the adapter contract; anything else is a target error with a precise message.
package enum AnswerParser {
    package static func parse(_ line: [UInt8], expectedID: String) -> Result<HandlerAnswer, AnswerError> {
        guard String(validating: line, as: UTF8.self) != nil else {
            return .failure(AnswerError("the answer line is not valid UTF-8"))
        }
        guard let json = try? JSONSerialization.jsonObject(with: Data(line)), let object = json as? [String: Any] else {
            return .failure(AnswerError("the answer line is not a JSON object"))
        }
        guard let id = object["id"] as? String else {
            return .failure(AnswerError("the answer has no string \"id\""))
        }
        guard id == expectedID else {
            return .failure(AnswerError("the answer is for id \(ByteText.display(id, limit: 80)), not for the request sent (\(ByteText.display(expectedID, limit: 80)))"))
        }
        guard let action = object["action"] as? String else {
            return .failure(AnswerError("the answer has no string \"action\" (\"open\" or \"decline\")"))
        }
        var universalLinksOnly: Bool?
        if let flag = object["universal_links_only"] {
            guard let number = flag as? NSNumber, CFGetTypeIDIsBool(number) else {
                return .failure(AnswerError("\"universal_links_only\" must be true or false"))
            }
            universalLinksOnly = number.boolValue
        }
        switch action {
        case "decline":
            return .success(HandlerAnswer(action: .decline, url: nil, universalLinksOnly: universalLinksOnly))
        case "open":
            guard let url = object["url"] as? String, !url.isEmpty else {
                return .failure(AnswerError("an \"open\" answer needs a non-empty string \"url\""))
            }
            return .success(HandlerAnswer(action: .open, url: url, universalLinksOnly: universalLinksOnly))
        default:
            return .failure(AnswerError("\"action\" is \(ByteText.display(action, limit: 40)); the contract allows \"open\" or \"decline\""))
        }
    }

    /// The `id` of an answer line, if the line is a JSON object with a string id.
    package static func answerID(_ line: [UInt8]) -> String? {
        ((try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any])?["id"] as? String
    }

    package struct AnswerError: Error, Sendable {
        package var message: String
        init(_ message: String) { self.message = message }
    }

    /// True for JSON `true`/`false`, false for numbers, on both Foundation implementations.
    private static func CFGetTypeIDIsBool(_ number: NSNumber) -> Bool {
        let type = String(cString: number.objCType)
        return type == "c" || type == "B"
    }
}
