import AppFlipBase

/// What an endpoint answered, as the checks see it.
package struct HTTPObservation: Sendable, Hashable {
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]
    /// When the request was driven through the target's sign-in and consent pages: every response on the way,
    /// the last (this observation) included.
    package var walk: [PageHop] = []
    /// For a `burst:` request: what the whole burst saw (this observation is its last answer).
    package var burst: Burst?

    package init(status: Int, headers: [(name: String, value: String)], body: [UInt8], walk: [PageHop] = []) {
        self.status = status
        self.headers = headers
        self.body = body
        self.walk = walk
    }

    package static func == (lhs: HTTPObservation, rhs: HTTPObservation) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body && lhs.headers.map(\.name) == rhs.headers.map(\.name)
            && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(status)
        hasher.combine(body)
    }

    /// The first value of the field `name` (compared without ASCII case, as HTTP compares field names).
    package func header(_ name: String) -> String? {
        headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    /// Every value of the field `name`, in order.
    package func headerValues(_ name: String) -> [String] {
        headers.filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
    }

    /// A redirect (3xx with a Location) seen as "the URL the app would open"; anything else opens nothing.
    package var asAnswer: HandlerAnswer {
        if (300...399).contains(status), let location = header("Location") {
            return HandlerAnswer(action: .open, url: location)
        }
        return HandlerAnswer(action: .decline)
    }

    /// The body as text (invalid UTF-8 replaced).
    package var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// What a step observed.
package enum Observation: Sendable, Hashable {
    case link(HandlerAnswer)
    case http(HTTPObservation)
    /// No HTTP exchange took place (refused, reset, timed out): only what a plain-http probe expects.
    case unreachable(String)
    /// A TLS probe's handshake answer: no HTTP exchange, only the version the server picked or its refusal.
    case handshake(TLSHandshake)
    /// A native-client step: the app's answers and the requests the test authorization server received.
    case native(NativeObservation)
    /// An activity step: what the partner's activity gave back.
    case activity(ActivityResult)

    /// The answer the URL assertions judge: the link handler's, or an HTTP redirect's `Location`.
    package var answer: HandlerAnswer {
        switch self {
        case .link(let answer): answer
        case .http(let observation): observation.asAnswer
        case .unreachable, .handshake, .native, .activity: HandlerAnswer(action: .decline)
        }
    }

    /// The URL whose parameters a step captures (`capture: NAME: {param: …}`): the opened URL or a redirect's
    /// `Location`; for a native-client step, the authorization request the app opened.
    package var capturedURL: String? {
        if case .native(let native) = self { return native.authorizationURL }
        return answer.url
    }
}
