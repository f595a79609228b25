import AppFlipBase
import AppFlipHTTP
import Foundation

/// A set of codes a broken server remembers, shared between its request threads.
package final class CodeSet: Sendable {
    private let codes = Locked<Set<String>>([])

    package init() {}

    package func insert(_ code: String) { _ = codes.withLock { $0.insert(code) } }
    package func contains(_ code: String) -> Bool { codes.withLock { $0.contains(code) } }
}

/// Responses a broken server replays, by request body.
final class ResponseCache: Sendable {
    private let entries = Locked<[String: HTTPResponse]>([:])

    func get(_ key: String) -> HTTPResponse? { entries.withLock { $0[key] } }
    func set(_ key: String, _ value: HTTPResponse) { entries.withLock { $0[key] = value } }
}

/// Short aliases for real tokens, for a server that hands out guessable ones.
final class TokenAliases: Sendable {
    private let reals = Locked<[String: String]>([:])

    func alias(for real: String) -> String {
        reals.withLock { reals in
            let alias = "at-\(reals.count + 1)"
            reals[alias] = real
            return alias
        }
    }

    func real(_ alias: String) -> String? { reals.withLock { $0[alias] } }
}

/// The API's answers for access tokens a broken server spares from a cascading revocation, each until it expires.
final class SparedTokens: Sendable {
    private let answers = Locked<[String: (answer: HTTPResponse, expires: Date)]>([:])

    func keep(_ answer: HTTPResponse, for token: String, until expires: Date) { answers.withLock { $0[token] = (answer, expires) } }
    func forget(_ token: String) { _ = answers.withLock { $0.removeValue(forKey: token) } }
    func answer(for token: String) -> HTTPResponse? {
        answers.withLock { answers in
            guard let kept = answers[token], kept.expires > Date() else { return nil }
            return kept.answer
        }
    }
}
