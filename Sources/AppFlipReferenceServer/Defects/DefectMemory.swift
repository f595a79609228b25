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

/// Short, guessable aliases for real tokens or codes (`PREFIX1`, `PREFIX2`, …), for a server that hands out such.
final class CountingAliases: Sendable {
    private let prefix: String
    private let reals = Locked<[String: String]>([:])

    init(prefix: String) { self.prefix = prefix }

    func alias(for real: String) -> String {
        reals.withLock { reals in
            let alias = "\(prefix)\(reals.count + 1)"
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

/// A value remembered per key (a code's redirect URI, its challenge).
final class PairMemory: Sendable {
    private let values = Locked<[String: String]>([:])

    func remember(_ value: String, for key: String) { values.withLock { $0[key] = value } }
    func value(for key: String) -> String? { values.withLock { $0[key] } }
}
