import Foundation

/// The app's answer to a native-client command.
package struct NativeAnswer: Sendable, Hashable {
    package enum Action: String, Sendable, Hashable, CaseIterable {
        case openBrowser = "open-browser"
        case signedIn = "signed-in"
        case rejected
        case refreshed
        case apiCall = "api-call"
        case noToken = "no-token"
        case signedOut = "signed-out"
    }

    /// How the app opens the authorization page (RFC 8252 §5, §8.12).
    package enum UserAgent: String, Sendable, Hashable, CaseIterable {
        case external
        case inAppTab = "in-app-tab"
        case embedded
    }

    package var action: Action
    /// For `open-browser`: the authorization request URL.
    package var url: String?
    package var userAgent: UserAgent?
    /// For `rejected`: why, in the app's words.
    package var reason: String?
    /// For `api-call`: the Authorization header value the app would send.
    package var authorization: String?

    /// Parses one answer line for the request `expectedID`; the error says what is wrong, in one sentence.
    package static func parse(_ line: [UInt8], expectedID: String) -> Result<NativeAnswer, AnswerProblem> {
        guard let text = String(validating: line, as: UTF8.self) else { return .failure(AnswerProblem("the answer is not valid UTF-8")) }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
            return .failure(AnswerProblem("the answer is not a JSON object"))
        }
        guard let id = object["id"] as? String else { return .failure(AnswerProblem("the answer has no string \"id\"")) }
        guard id == expectedID else { return .failure(AnswerProblem("the answer is for id \(id), not for the command sent")) }
        guard let name = object["action"] as? String, let action = Action(rawValue: name) else {
            let known = Action.allCases.map(\.rawValue).joined(separator: ", ")
            return .failure(AnswerProblem("\"action\" must be one of \(known)"))
        }
        var answer = NativeAnswer(action: action)
        answer.url = object["url"] as? String
        answer.reason = object["reason"] as? String
        answer.authorization = object["authorization"] as? String
        if let agent = object["user_agent"] as? String {
            guard let parsed = UserAgent(rawValue: agent) else {
                return .failure(AnswerProblem("\"user_agent\" must be external, in-app-tab or embedded, not \(agent)"))
            }
            answer.userAgent = parsed
        }
        if action == .openBrowser, answer.url == nil { return .failure(AnswerProblem("open-browser needs a string \"url\"")) }
        return .success(answer)
    }

    package init(action: Action) {
        self.action = action
    }

    package struct AnswerProblem: Error, Sendable, Hashable {
        package var message: String
        package init(_ message: String) { self.message = message }
    }
}
