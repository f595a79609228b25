import AppFlipHTTP
import AppFlipModel
import AppFlipSystem
import Foundation

/// One sign-in driven end to end, the suite playing the system browser in front of its test authorization server:
/// the app opens its authorization request, the server answers as scripted, the redirect goes back to the app (handed
/// over for a private-use scheme, a real GET to its listener for a loopback URI), and the app says how it ended.
package struct NativeSignIn: Sendable {
    /// What happened, for the checks and as evidence.
    package struct Record: Sendable, Hashable {
        /// The authorization request URL the app opened.
        package var authorizationURL: String?
        package var userAgent: NativeAnswer.UserAgent?
        /// Where the server's answer sent the browser.
        package var redirect: String?
        /// How the redirect reached the app: `deliver-redirect`, or `loopback GET` with the listener's status.
        package var delivery: String?
        /// The app's last answer (`signed-in` or `rejected`).
        package var outcome: NativeAnswer?
        /// The app answered the sign-in command with `rejected` and opened nothing.
        package var refusedToStart = false
        /// Set when the app did not follow the contract (no answer, garbage, a URL elsewhere): the case is an error.
        package var failure: NativeFailure?
        /// For a loopback redirect: the listener's addresses while the callback was pending, and whether it still
        /// listened after the app answered (read without connecting; nil where the platform cannot tell).
        package var listenerAddresses: [String]?
        package var listenerOpenAfterCallback: Bool?
        /// Set when the redirect never reached the app: its loopback listener accepted no connection, or took one,
        /// answered nothing and the app said nothing either. Not a case error: the app's own choice, judged under
        /// NAT-REDIR-004-S, and what needed the callback is not judged.
        package var undelivered: String?
        /// For a redirect delivered again (replayed, unsolicited): the app's listener was closed, so the browser
        /// could not deliver it, and the app said nothing. The app refused it, in effect.
        package var refusedByClosedListener = false
    }

    package var scopes: [String]
    /// The private-use-scheme URI given to the app, when the case gives one.
    package var redirectURI: String?
    package var timeout: Double

    package init(scopes: [String] = ["openid", "email"], redirectURI: String? = nil, timeout: Double = 10) {
        self.scopes = scopes
        self.redirectURI = redirectURI
        self.timeout = timeout
    }

    package func run(_ session: NativeClientSession, server: TestAuthorizationServer) -> Record {
        var record = Record()
        let opened: NativeAnswer
        switch session.exchange(.signIn(server.configuration(scopes: scopes, redirectURI: redirectURI)), timeout: timeout) {
        case .failure(let failure):
            record.failure = failure
            return record
        case .success(let answer): opened = answer
        }
        if opened.action == .rejected {
            // The app refused to start; whether that is an answer or a breach of the contract depends on what the
            // server offered it (NativeServerScript.justifiesRefusal), which the step knows.
            record.outcome = opened
            record.refusedToStart = true
            return record
        }
        guard opened.action == .openBrowser, let url = opened.url else {
            record.outcome = opened
            record.failure = NativeFailure(
                message: "the app answered sign-in with \(opened.action.rawValue), not open-browser"
                    + (opened.reason.map { " (\($0))" } ?? ""))
            return record
        }
        record.authorizationURL = url
        record.userAgent = opened.userAgent
        // The suite contacts only its own server: a URL elsewhere is recorded and judged, never fetched.
        guard url.hasPrefix(server.authorizationEndpoint + "?") else {
            record.failure = NativeFailure(message: "the app opened a URL that is not the configured authorization endpoint")
            return record
        }
        let browser: HTTPResponse
        do throws(HTTPClient.Failure) {
            guard let (origin, target) = HTTPOrigin.split(url) else { throw HTTPClient.Failure(message: "not an http URL") }
            // The suite's own test server on loopback: no name or CA of the run's is involved.
            let client = try HTTPClient(origin: origin, network: .system, timeouts: HTTPClient.Timeouts(connect: 2, total: timeout))
            defer { client.close() }
            browser = try client.send(
                HTTPRequest(
                    method: "GET", target: target,
                    headers: HTTPHeaders([(TestAuthorizationServer.browserHeader, server.browserMarker)])))
        } catch {
            // Only the app can have filled the server: then it is the app's doing, not the suite's.
            let crowded = server.busyRefusals > 0
            record.failure = NativeFailure(
                message: crowded ? Self.crowdedOut(server) : "the suite's own authorization server did not answer: \(error.message)",
                suiteFault: !crowded)
            return record
        }
        if browser.status == 503, server.busyRefusals > 0 {
            record.failure = NativeFailure(message: Self.crowdedOut(server))
            return record
        }
        guard browser.status == 302, let location = browser.headers["Location"] else {
            // The server refused the request (no client or redirect URI): nothing goes back to the app.
            record.redirect = nil
            record.delivery = "none: the authorization server answered \(browser.status)"
            return record
        }
        record.redirect = location
        deliver(location, session: session, into: &record, signingIn: true)
        return record
    }

    private static func crowdedOut(_ server: TestAuthorizationServer) -> String {
        "the app held \(TestAuthorizationServer.capacity.maximumConnections) connections to the test authorization server open, "
            + "so the browser's request was refused (503): " + (server.refusedTraffic ?? "")
    }

    /// Hands `location` to the app the way a browser would (a real GET for a loopback URI, deliver-redirect for
    /// the others) and records the app's answer: the end of a sign-in (`signingIn`), and the replay of its redirect,
    /// which a listener closed after its callback refuses as it should.
    package func deliver(_ location: String, session: NativeClientSession, into record: inout Record, signingIn: Bool) {
        let deadline = Platform.monotonicSeconds() + timeout
        let redirectURI = NativeRedirectURI(location)
        let answer: Result<NativeAnswer, NativeFailure>
        if case .http(let host, let port, _) = redirectURI.form {
            guard NativeRedirectURI.isLoopbackHost(host) else {
                record.failure = NativeFailure(message: "the redirect URI's host \(host) is not loopback: the suite does not contact it")
                return
            }
            record.listenerAddresses = ListeningSockets.addresses(listeningOn: port ?? 80)
            var get = LoopbackGet.answered(status: 0)
            answer = session.send(.awaitRedirect, deadline: deadline).flatMap { id in
                get = Self.loopbackGet(location, host: host, port: port ?? 80, timeout: timeout)
                record.delivery = "loopback GET: " + get.description
                // With no answer from the listener, the app's answer is read only if it comes at once: an app whose
                // listener missed the callback may wait for it far longer than the case may.
                let grace = get.reachedListener ? deadline : min(deadline, Platform.monotonicSeconds() + Self.graceAfterUnansweredGet)
                return session.receive(id, command: "await-redirect", deadline: grace)
            }
            record.listenerOpenAfterCallback = ListeningSockets.addresses(listeningOn: port ?? 80).map { !$0.isEmpty }
            switch (get, answer) {
            case (.unreachable, .failure) where !signingIn:
                record.refusedByClosedListener = true
                return
            case (.unreachable, .success(let outcome)) where !signingIn:
                record.outcome = outcome
                return
            case (.unreachable(let why), _):
                // Nothing connected: whatever the app says, the callback cannot have reached it.
                record.undelivered = "the app's loopback listener on \(host):\(port ?? 80) accepted no connection (\(why))"
                if case .success(let outcome) = answer { record.outcome = outcome }
                return
            case (.unanswered(let why), .failure):
                record.undelivered =
                    "the app's loopback listener on \(host):\(port ?? 80) gave the browser no answer (\(why)), and the app none either"
                return
            default:
                break
            }
        } else {
            record.delivery = "deliver-redirect"
            answer = session.exchange(.deliverRedirect(url: location), timeout: timeout)
        }
        switch answer {
        case .success(let outcome): record.outcome = outcome
        case .failure(let failure): record.failure = failure
        }
    }

    /// How long the app's answer is awaited after its listener gave the browser nothing.
    static let graceAfterUnansweredGet = 1.0

    /// What the browser's GET of a loopback redirect met.
    enum LoopbackGet: CustomStringConvertible {
        /// The listener answered with this status.
        case answered(status: Int)
        /// A connection was made, but no answer came in time (or the listener closed it).
        case unanswered(String)
        /// No connection could be made.
        case unreachable(String)

        var reachedListener: Bool {
            if case .answered = self { return true }
            return false
        }

        var description: String {
            switch self {
            case .answered(let status): "HTTP \(status)"
            case .unanswered(let why): "no answer from the listener (\(why))"
            case .unreachable(let why): "the listener could not be reached (\(why))"
            }
        }
    }

    /// The browser's GET of a loopback redirect, with a short time of its own: a listener that takes the connection
    /// and never answers must not spend the case's time.
    private static func loopbackGet(_ location: String, host: String, port: Int, timeout: Double) -> LoopbackGet {
        guard let (origin, target) = HTTPOrigin.split(location) else { return .unreachable("not a URL the suite can fetch") }
        let client: HTTPClient
        do {
            // The app's own listener on loopback: no name or CA of the run's is involved.
            client = try HTTPClient(origin: origin, network: .system, timeouts: HTTPClient.Timeouts(connect: 2, total: min(timeout, 5)))
        } catch {
            return .unreachable(error.message)
        }
        defer { client.close() }
        do {
            return .answered(status: try client.send(HTTPRequest(method: "GET", target: target)).status)
        } catch {
            return client.connectionsOpened > 0 ? .unanswered(error.message) : .unreachable(error.message)
        }
    }
}
