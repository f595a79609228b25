/// What one native-client step observed: the app's answers and the requests the test authorization server received
/// while the step ran.
public struct NativeObservation: Sendable, Hashable {
    public var command: NativeStep.Command
    /// The app's last answer in the step (`signed-in` or `rejected` after a sign-in); nil when it gave none.
    public var answer: NativeAnswer?
    /// The authorization request URL the app opened in this step (sign-in), else the case's latest one.
    public var authorizationURL: String?
    /// The one the app opened before this step's, in the same case.
    public var previousAuthorizationURL: String?
    public var userAgent: NativeAnswer.UserAgent?
    /// Where the server's answer sent the browser, and how the redirect reached the app.
    public var redirect: String?
    public var delivery: String?
    /// For a loopback redirect: where the app's listener listened while the callback was pending (nil where this
    /// platform cannot tell), and whether it still listened once the app had answered.
    public var listenerAddresses: [String]?
    public var listenerOpenAfterCallback: Bool?
    /// The server's requests during this step, in order.
    public var requests: [NativeServerRequest]
    /// The refresh tokens the server had issued before this step, in order.
    public var refreshTokensBefore: [String]

    public init(command: NativeStep.Command, answer: NativeAnswer?, authorizationURL: String?, requests: [NativeServerRequest],
                refreshTokensBefore: [String]) {
        self.command = command
        self.answer = answer
        self.authorizationURL = authorizationURL
        self.requests = requests
        self.refreshTokensBefore = refreshTokensBefore
    }

    /// The step's code exchange (`POST /token`, `grant_type=authorization_code`), if any.
    public var codeExchange: NativeServerRequest? { requests.first { $0.isTokenRequest(grant: "authorization_code") } }

    /// One line for the evidence.
    public var summary: String {
        var parts = ["app: " + (answer.map { $0.action.rawValue + ($0.reason.map { " (\($0))" } ?? "") } ?? "no answer")]
        if let delivery { parts.append("redirect: " + delivery) }
        let seen = requests.map { "\($0.method) \($0.path)" }
        parts.append("server saw: " + (seen.isEmpty ? "nothing" : seen.joined(separator: ", ")))
        return parts.joined(separator: "; ")
    }
}
