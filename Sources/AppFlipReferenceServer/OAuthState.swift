import AppFlipBase
import AppFlipReference
import Foundation

/// The reference OAuth server's in-memory state: issued codes and tokens, behind one lock.
final class OAuthState: Sendable {
    struct IssuedCode {
        var clientID: String
        var redirectURI: String
        var scope: String
        var challenge: String?
        var method: String?
        var expires: Date
        var used = false
        /// Tokens issued for this code, revoked if the code is replayed (RFC 6749 §4.1.2).
        var tokens: [String] = []
        /// The user who consented (App Flip codes belong to the app's signed-in approver).
        var user = "approver"
    }

    struct IssuedToken {
        var clientID: String
        var scope: String
        var isRefresh: Bool
        var expires: Date?
        var revoked = false
        /// For a refresh token: the access tokens minted from it.
        var children: [String] = []
        /// For a rotated refresh token (public clients): the first token of its family, and whether it was
        /// already exchanged for a newer one (presenting it again is a replay).
        var family: String?
        var rotatedAway = false
        /// The user the token acts for.
        var user = "approver"
    }

    /// Everything issued, in one value behind one lock.
    struct Tables {
        var codes: [String: IssuedCode] = [:]
        var tokens: [String: IssuedToken] = [:]
        /// Signed-in browsers: session cookie value → user.
        var sessions: [String: String] = [:]
        /// Anti-forgery tokens: token → what it is bound to (a pre-session, or a session and a request). Single-use.
        var formTokens: [String: String] = [:]
        /// Failed client authentications per presented client ID, newest last, for throttling (RFC 6749 §2.3.1).
        var failedAuthentications: [String: [Date]] = [:]

        /// Revokes a token (and, for a refresh token, the access tokens minted from it).
        mutating func revoke(_ value: String) {
            guard tokens[value] != nil else { return }
            tokens[value]?.revoked = true
            for child in tokens[value]?.children ?? [] { tokens[child]?.revoked = true }
        }
    }

    private let tables = Locked(Tables())

    /// How many failures within `window` seconds throttle a client ID, and for how long the window runs.
    static let throttleLimit = 20
    static let throttleWindow: TimeInterval = 10

    /// Records a failed authentication for the presented client ID.
    func recordFailedAuthentication(_ clientID: String) {
        withLock { state in
            let now = Date()
            var recent = (state.failedAuthentications[clientID] ?? []).filter { now.timeIntervalSince($0) < Self.throttleWindow }
            recent.append(now)
            state.failedAuthentications[clientID] = Array(recent.suffix(Self.throttleLimit * 2))
        }
    }

    /// Seconds until the client ID may try again, or nil when it is not throttled.
    func throttled(_ clientID: String) -> Int? {
        withLock { state in
            let now = Date()
            let recent = (state.failedAuthentications[clientID] ?? []).filter { now.timeIntervalSince($0) < Self.throttleWindow }
            guard recent.count >= Self.throttleLimit, let oldest = recent.first else { return nil }
            return max(1, Int((Self.throttleWindow - now.timeIntervalSince(oldest)).rounded(.up)))
        }
    }

    func newSession(user: String) -> String {
        let session = CodeMinter.mint()
        withLock { $0.sessions[session] = user }
        return session
    }

    func sessionUser(_ session: String) -> String? { withLock { $0.sessions[session] } }

    func newToken(for binding: String) -> String {
        let token = CodeMinter.mint()
        withLock { $0.formTokens[token] = binding }
        return token
    }

    /// True once for a token bound to `binding`; the token is spent either way.
    func consumeToken(_ token: String, for binding: String) -> Bool {
        withLock { $0.formTokens.removeValue(forKey: token) == binding }
    }

    func withLock<Result>(_ body: (inout Tables) -> Result) -> Result {
        tables.withLock(body)
    }

    func storeCode(_ code: IssuedCode) -> String {
        let value = CodeMinter.mint()
        withLock { $0.codes[value] = code }
        return value
    }

    /// Takes the code for redemption: nil when unknown; marks it used and returns its previous record.
    func redeem(_ value: String) -> IssuedCode? {
        withLock { state in
            guard let code = state.codes[value] else { return nil }
            state.codes[value]?.used = true
            return code
        }
    }

    func revokeTokens(of codeValue: String) {
        withLock { state in
            for token in state.codes[codeValue]?.tokens ?? [] { state.revoke(token) }
        }
    }

    func attach(tokens issued: [String], toCode codeValue: String) {
        withLock { $0.codes[codeValue]?.tokens += issued }
    }

    func issueTokens(
        clientID: String, scope: String, user: String, lifetime: Double,
        refresh existingRefresh: String? = nil
    ) -> (access: String, refresh: String) {
        withLock { state in
            let access = "at-" + CodeMinter.mint()
            state.tokens[access] = IssuedToken(
                clientID: clientID, scope: scope, isRefresh: false, expires: Date().addingTimeInterval(lifetime),
                user: user)
            let refresh = existingRefresh ?? ("rt-" + CodeMinter.mint())
            if existingRefresh == nil {
                state.tokens[refresh] = IssuedToken(clientID: clientID, scope: scope, isRefresh: true, expires: nil, user: user)
            }
            state.tokens[refresh]?.children.append(access)
            return (access, refresh)
        }
    }

    /// Rotates a public client's refresh token (RFC 9700 §4.14.2): the old one is spent, a new one of the same
    /// family is issued with a new access token. Presenting a spent one revokes the whole family (replay).
    /// Nil when `value` was already spent: the family is then revoked.
    func rotate(_ value: String, lifetime: Double) -> (access: String, refresh: String)? {
        withLock { state in
            guard var old = state.tokens[value] else { return nil }
            let family = old.family ?? value
            if old.rotatedAway {
                for (key, token) in state.tokens where token.family == family || key == family { state.revoke(key) }
                return nil
            }
            old.rotatedAway = true
            old.family = family
            state.tokens[value] = old
            let access = "at-" + CodeMinter.mint()
            state.tokens[access] = IssuedToken(
                clientID: old.clientID, scope: old.scope, isRefresh: false, expires: Date().addingTimeInterval(lifetime),
                family: family, user: old.user)
            let refresh = "rt-" + CodeMinter.mint()
            state.tokens[refresh] = IssuedToken(
                clientID: old.clientID, scope: old.scope, isRefresh: true, expires: nil, children: [access],
                family: family, user: old.user)
            return (access, refresh)
        }
    }

    func token(_ value: String) -> IssuedToken? {
        withLock { $0.tokens[value] }
    }

    /// Revokes a token (and, for a refresh token, the access tokens minted from it).
    func revoke(_ value: String) {
        withLock { $0.revoke(value) }
    }
}
