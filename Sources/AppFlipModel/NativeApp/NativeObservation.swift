/// What one native-client step observed: the app's answers and the requests the test authorization server received
/// while the step ran.
package struct NativeObservation: Sendable, Hashable {
    package var command: NativeStep.Command
    /// The app's last answer in the step (`signed-in` or `rejected` after a sign-in); nil when it gave none.
    package var answer: NativeAnswer?
    /// The authorization request URL the app opened in this step (sign-in), else the case's latest one.
    package var authorizationURL: String?
    /// The one the app opened before this step's, in the same case.
    package var previousAuthorizationURL: String?
    package var userAgent: NativeAnswer.UserAgent?
    /// Where the server's answer sent the browser, and how the redirect reached the app.
    package var redirect: String?
    package var delivery: String?
    /// For a loopback redirect: where the app's listener listened while the callback was pending (nil where this
    /// platform cannot tell), and whether it still listened once the app had answered.
    package var listenerAddresses: [String]?
    package var listenerOpenAfterCallback: Bool?
    /// The server's requests during this step, in order.
    package var requests: [NativeServerRequest]
    /// Every request the server received in the case so far, this step's included (nil: only `requests` known).
    package var caseRequests: [NativeServerRequest]?
    /// The refresh tokens the server had issued before this step, in order.
    package var refreshTokensBefore: [String]
    /// Set when the server refused every code exchange of the case so far for what the app sent (not a scripted
    /// answer), so the app holds no token: checks that need a completed exchange do not apply (one defect, one
    /// blame: the exchange's own requirement carries it).
    package var refusedExchange: String?
    /// Set when the server's redirect never reached the app (its loopback listener could not be reached): the app
    /// could neither complete nor refuse the response, so only what it sent before is judged.
    package var undelivered: String?
    /// For a redirect delivered again: the app's listener, closed after its callback, refused it, and the app said
    /// nothing (a refusal in effect).
    package var refusedByClosedListener = false
    /// The certificate the step's token and revocation endpoints presented over https (nil: plain http).
    package var tokenCertificate: NativeServerScript.TokenCertificate?
    /// The TLS handshakes with those endpoints that did not complete during the step, each with OpenSSL's reason as
    /// the server saw it (a client that refuses the certificate ends the handshake with an alert); the first few.
    package var failedHandshakes: [String] = []
    package var failedHandshakeCount = 0
    /// The TLS handshakes with those endpoints that completed during the step (the app accepted the certificate).
    package var completedHandshakeCount = 0

    package init(
        command: NativeStep.Command, answer: NativeAnswer?, authorizationURL: String?, requests: [NativeServerRequest],
        refreshTokensBefore: [String]
    ) {
        self.command = command
        self.answer = answer
        self.authorizationURL = authorizationURL
        self.requests = requests
        self.refreshTokensBefore = refreshTokensBefore
    }

    /// Why a check that needs a completed code exchange does not apply, or nil when one completed.
    package var needsTokensReason: String? {
        if let undelivered { return Self.undeliveredReason(undelivered) }
        return refusedExchange.map {
            "the server refused the app's code exchange (\($0)), so the app holds no token: judged under the code exchange's own requirement"
        }
    }

    /// Why a check that needs the redirect to reach the app does not apply.
    package static func undeliveredReason(_ why: String) -> String {
        "the redirect never reached the app: \(why); judged under NAT-REDIR-004-S"
    }

    /// The step's code exchange (`POST /token`, `grant_type=authorization_code`), if any.
    package var codeExchange: NativeServerRequest? { requests.first { $0.isTokenRequest(grant: "authorization_code") } }

    /// One line for the evidence.
    package var summary: String {
        var parts = ["app: " + (answer.map { $0.action.rawValue + ($0.reason.map { " (\($0))" } ?? "") } ?? "no answer")]
        if let delivery { parts.append("redirect: " + delivery) }
        let seen = requests.map { "\($0.method) \($0.path)" }
        parts.append("server saw: " + (seen.isEmpty ? "nothing" : seen.joined(separator: ", ")))
        return parts.joined(separator: "; ")
    }
}

extension NativeObservation {
    /// How a reason names a native-client step (and what it observed), for a check that does not judge it.
    static let stepNoun = "a native-client step"
}
