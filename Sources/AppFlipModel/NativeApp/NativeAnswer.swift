import AppFlipBase
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
        guard String(validating: line, as: UTF8.self) != nil else { return .failure(AnswerProblem("the answer is not valid UTF-8")) }
        let object: JSONReader.Value
        do {
            object = try JSONReader.read(line)
        } catch {
            return .failure(AnswerProblem(error.isRepeatedMember ? "the answer is ambiguous: \(error.message)" : "the answer is not a JSON object"))
        }
        guard case .object = object else { return .failure(AnswerProblem("the answer is not a JSON object")) }
        guard let id = object.member("id")?.string else { return .failure(AnswerProblem("the answer has no string \"id\"")) }
        guard id == expectedID else {
            return .failure(AnswerProblem("the answer is for id \(ByteText.display(id, limit: 80)), not for the command sent"))
        }
        guard let name = object.member("action")?.string, let action = Action(rawValue: name) else {
            let known = Action.allCases.map(\.rawValue).joined(separator: ", ")
            return .failure(AnswerProblem("\"action\" must be one of \(known)"))
        }
        var answer = NativeAnswer(action: action)
        answer.url = object.member("url")?.string
        answer.reason = object.member("reason")?.string
        answer.authorization = object.member("authorization")?.string
        if let agent = object.member("user_agent")?.string {
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
