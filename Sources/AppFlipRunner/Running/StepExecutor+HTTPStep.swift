import AppFlipBase
import AppFlipChecks
import AppFlipHTTP
import AppFlipModel
import AppFlipRedaction
import Foundation

/// An HTTP step: its request built from the case, sent on this worker's connections (alone on a connection of its
/// own when the server may leave part of it unread, through the sign-in pages when the user signs in there), and
/// its answer absorbed into the case: observation, evidence, captures.
extension StepExecutor {
    /// The step's request built, or nil when it cannot be (the outcome then says why).
    func prepare(
        _ request: HTTPStepRequest, of conformanceCase: ConformanceCase, label: String, context: Template.Context,
        state: inout CaseState
    ) -> Prepared? {
        switch build(request, conformanceCase: conformanceCase, context: context) {
        case .success(let prepared):
            return prepared
        case .failure(let problem):
            Self.record(unbuilt: problem, label: label, state: &state)
            return nil
        }
    }

    /// Why a step's request could not be built: a step that cannot be judged here skips the case, anything else is
    /// the case's failure.
    static func record(unbuilt problem: Problem, label: String, state: inout CaseState) {
        state.outcome.record(problem.notApplicable ? .notApplicable(label + problem.message) : .target(label + problem.message))
    }

    /// Builds an HTTP step's request and sends it (through the sign-in pages when the user signs in there): the
    /// network part of an HTTP step, on this worker's connections. `absorb` makes the rest of it on any thread.
    func sendHTTP(_ request: HTTPStepRequest, of conformanceCase: ConformanceCase, context: Template.Context) -> SentHTTP {
        let prepared: Prepared
        switch build(request, conformanceCase: conformanceCase, context: context) {
        case .failure(let problem): return SentHTTP(request: request, built: .failure(problem))
        case .success(let built): prepared = built
        }
        let sentAt = Date()
        func elapsed() -> Int { Int((Date().timeIntervalSince(sentAt) * 1000).rounded()) }
        guard let script = prepared.signIn else {
            if prepared.request.mayDesync {
                let (answer, framing) = sendAlone(prepared)
                return SentHTTP(
                    request: request, built: .success(prepared), answer: answer, sentAt: sentAt, milliseconds: elapsed(), framing: framing)
            }
            let answer = send(prepared)
            return SentHTTP(request: request, built: .success(prepared), answer: answer, sentAt: sentAt, milliseconds: elapsed())
        }
        // Through the real pages: every hop stays within the allowed origins; the walk's end is judged.
        let allowed = Set([prepared.origin] + targets.signInOrigins.compactMap { HTTPOrigin.split($0)?.origin })
        var browser = SignInBrowser(script: script, probe: request.signInProbe, allowed: allowed) { origin, request in
            self.send(Prepared(origin: origin, request: request, sentQueries: []))
        }
        if request.signInProbe == .foreignToken { browser.donor = targets.donorSignIn(besides: conformanceCase.scenario) }
        browser.expectsSignIn = prepared.signInUser != .disabledAccount
        switch browser.walk(prepared.request, origin: prepared.origin) {
        case .success(var walk):
            if let unfinished = walk.unfinished { walk.unfinished = confirmStop(unfinished, browser: browser, at: prepared.origin, context: context) }
            return SentHTTP(
                request: request, built: .success(prepared), answer: .success(walk.response), walk: walk, sentAt: sentAt,
                milliseconds: elapsed())
        case .failure(let problem):
            return SentHTTP(request: request, built: .success(prepared), answer: .failure(problem), sentAt: sentAt, milliseconds: elapsed())
        }
    }

    /// Whether a walk that ended short of the authorization logic (`unfinished`) stopped at the pages themselves:
    /// Google's valid authorization request, walked by the same user the same way, must get past that point and
    /// reach the client. When it does, the case's own end is the authorization logic's answer to the case's request
    /// (nil: judged as it is); when it does not, the pages stop every walk there, so the case judges nothing (the reason).
    func confirmStop(_ unfinished: String, browser: SignInBrowser, at origin: HTTPOrigin, context: Template.Context) -> String? {
        guard let url = targets.endpoints[.authorize], let split = HTTPOrigin.split(url) else { return unfinished }
        var control = browser
        control.probe = nil
        control.donor = nil
        let target = split.target + (split.target.utf8.contains(0x3F) ? "&" : "?") + LinkRecipe.base(.authorize).buildQuery(in: context)
        let valid = "; Google's valid request, walked the same way, "
        switch control.walk(HTTPRequest(method: "GET", target: target), origin: origin) {
        case .success(let walk) where walk.left:
            return nil
        case .success(let walk) where walk.unfinished == unfinished:
            return unfinished + valid + "stops there too"
        case .success(let walk):
            return unfinished + valid + "stops too: " + (walk.unfinished ?? walk.hops.last ?? "")
        case .failure(let problem):
            return unfinished + valid + "fails: " + problem.message
        }
    }

    /// An HTTP step as sent: its request built (or why not), the answer (or why none came) and the sign-in walk
    /// that led to it. Holds nothing of the worker's.
    struct SentHTTP: Sendable {
        var request: HTTPStepRequest
        var built: Result<Prepared, Problem>
        var answer: Result<HTTPResponse, Problem> = .failure(Problem(message: "nothing was sent"))
        var walk: SignInBrowser.Walk?
        /// When the request went out (through the sign-in pages: when the walk began) and how long until its answer.
        var sentAt: Date?
        var milliseconds: Int?
        /// For a request a server may leave partly unread: whether it read it whole (`RequestFraming`).
        var framing: CheckResult?
    }

    /// What a sent HTTP step shows: the evidence (redacted) and the observation to judge, or nil when the target gave
    /// no usable answer (the outcome then says why). Needs none of the worker's connections.
    static func absorb(
        _ sent: SentHTTP, of step: Step, label: String, context: Template.Context, recordEvidence: Bool,
        state: inout CaseState
    ) -> (Observation, [QueryParameter])? {
        let prepared: Prepared
        switch sent.built {
        case .failure(let problem):
            Self.record(unbuilt: problem, label: label, state: &state)
            return nil
        case .success(let built): prepared = built
        }
        let exchange = SentExchange(
            transcript: "\(label)\(prepared.request.method) \(Redaction.redact(url: prepared.origin.description + prepared.request.target))",
            requestHeaders: recordEvidence ? Evidence.headers(prepared.request.headerLines(host: prepared.origin.hostHeader)) : [],
            label: label)
        // The walk's pages, made once: the observation judges them and the evidence lists them.
        let pages = sent.walk?.pages ?? []
        let answer = sent.answer.map { response in
            HTTPObservation(
                status: response.status, headers: response.headers.fields.map { ($0.name, $0.value) }, body: response.body, walk: pages)
        }
        // The answer's codes and tokens are looked for in all of the case's evidence: learnt before the walk's pages
        // are recorded (its last hop may show them), they are looked for once.
        if case .success(let http) = answer { state.outcome.learn(SecretValues.inAnswer(http)) }
        if let walk = sent.walk, !absorb(walk, pages: pages, label: label, recordEvidence: recordEvidence, state: &state) { return nil }
        switch answer {
        case .failure(let problem):
            return absorb(noResponse: problem, sent: sent, prepared: prepared, exchange: exchange, state: &state)
        case .success(let http):
            return absorb(
                http, sent: sent, of: step, prepared: prepared, exchange: exchange, context: context, recordEvidence: recordEvidence,
                state: &state)
        }
    }

    /// What every part of a sent request's evidence starts with.
    struct SentExchange {
        var transcript: String
        var requestHeaders: [Evidence.Header]
        var label: String
    }

    /// The sign-in walk before the request (`pages`: its pages, `walk.pages`): its pages as evidence; false when it
    /// stopped before the request was sent.
    private static func absorb(
        _ walk: SignInBrowser.Walk, pages: [PageHop], label: String, recordEvidence: Bool, state: inout CaseState
    ) -> Bool {
        if recordEvidence || walk.unfinished != nil {
            state.outcome.record(Evidence.Exchange(label + "signed in through the pages:\n  " + walk.hops(of: pages).joined(separator: "\n  ")))
        }
        if let unfinished = walk.unfinished {
            // Nothing after the pages was reached: an absence seen here would prove nothing. The page it stopped
            // on is the evidence (a CSRF refusal says why in its body).
            let last = HTTPObservation(
                status: walk.response.status, headers: walk.response.headers.fields.map { ($0.name, $0.value) },
                body: walk.response.body)
            state.outcome.record(
                Evidence.Exchange(label + "the page the walk stopped on: HTTP \(last.status)", responseHeaders: Evidence.headers(last.headers)),
                then: bodyExcerpt(last, redactor: state.outcome.redactor))
            state.outcome.record(.target(label + "the sign-in walk stopped before the authorization endpoint judged this request: " + unfinished))
            return false
        }
        return true
    }

    /// A request that got no response: not applicable where the platform could not carry it, an answer for a
    /// plain-http probe, else a target error.
    private static func absorb(
        noResponse problem: Problem, sent: SentHTTP, prepared: Prepared, exchange: SentExchange, state: inout CaseState
    ) -> (Observation, [QueryParameter])? {
        let label = exchange.label
        let transcript = exchange.transcript
        let requestHeaders = exchange.requestHeaders
        if problem.inexact {
            // The platform could not carry the request or its answer as is: the case does not apply here.
            state.outcome.record(.notApplicable(label + problem.message))
            return nil
        }
        state.outcome.record(
            Evidence.Exchange(
                transcript + "\n  → no response: \(problem.message)", sentAt: sent.sentAt,
                milliseconds: sent.milliseconds, requestHeaders: requestHeaders))
        if sent.request.plainHTTPProbe {
            // For a plain-http probe no answer is an answer: nothing is served there.
            return (.unreachable(problem.message), prepared.sentParameters)
        }
        state.outcome.record(.target(label + problem.message))
        return nil
    }

    /// A response: the evidence, what it says of the configured credentials, and the observation to judge; nil when the
    /// target throttled the request.
    private static func absorb(
        _ http: HTTPObservation, sent: SentHTTP, of step: Step, prepared: Prepared, exchange: SentExchange, context: Template.Context,
        recordEvidence: Bool, state: inout CaseState
    ) -> (Observation, [QueryParameter])? {
        let label = exchange.label
        let transcript = exchange.transcript
        let requestHeaders = exchange.requestHeaders
        if let framing = sent.framing {
            // The worst of the case's rounds is kept.
            if state.outcome.framing.map({ $0.verdict < framing.verdict || !$0.isApplicable }) ?? true { state.outcome.framing = framing }
        }
        if state.outcome.serverError == nil {
            state.outcome.serverError = ServerErrorAnswer.check(
                status: http.status,
                request: "\(label)\(prepared.request.method) \(prepared.request.path)")
        }
        if http.status == 429 {
            // Throttled: the answer says nothing about the requirement under test (bursts judge 429 themselves).
            state.outcome.record(
                Evidence.Exchange(
                    transcript + "\n  → HTTP 429", sentAt: sent.sentAt, milliseconds: sent.milliseconds, requestHeaders: requestHeaders,
                    responseHeaders: Evidence.headers(http.headers)))
            state.outcome.record(
                .throttled(
                    label + "the target throttled this request (429 Too Many Requests"
                        + (http.header("Retry-After").map { ", Retry-After: \($0)" } ?? "") + "), so its answer judges nothing; "
                        + "rerun with fewer --jobs, or allow the suite's address more requests"))
            return nil
        }
        let observation = Observation.http(http)
        if prepared.usesConfiguredCredentials, let verdict = ConfiguredCredentials.verdict(on: http) {
            state.outcome.configuredCredentials = state.outcome.configuredCredentials == .accepted ? .accepted : verdict
        }
        if recordEvidence {
            let body =
                prepared.request.body.isEmpty
                ? ""
                : "\n  body: " + Redaction.redact(query: Substring(String(decoding: prepared.request.body, as: UTF8.self)))
            let repeated = step.repeatCount > 1 ? " (first of \(step.repeatCount))" : ""
            state.outcome.record(
                Evidence.Exchange(
                    transcript + repeated + body + "\n  → " + Judge(context: context).summary(observation), sentAt: sent.sentAt,
                    milliseconds: sent.milliseconds, requestHeaders: requestHeaders, responseHeaders: Evidence.headers(http.headers)),
                then: bodyExcerpt(http, redactor: state.outcome.redactor))
        }
        return (observation, prepared.sentParameters)
    }

    struct Prepared: Sendable {
        var origin: HTTPOrigin
        var request: HTTPRequest
        /// The query and the form as sent: the parameters the checks compare with (`sentParameters`) are parsed from
        /// them when judged, off the worker.
        var sentQueries: [String]
        var sentParameters: [QueryParameter] { sentQueries.flatMap { QueryParameter.parse(query: Substring($0)) } }
        /// The request authenticates the client with the configured client ID and secret (not a probe value).
        var usesConfiguredCredentials = false
        /// Set when the request is driven through the target's sign-in and consent pages.
        var signIn: SignInScript?
        /// The scenario whose user signs in there.
        var signInUser: Scenario?
    }

    struct Problem: Error, Sendable {
        var message: String
        var inexact = false
        /// The step cannot be judged in this configuration: the case is skipped with the message.
        var notApplicable = false
    }

    /// Adds the client's authentication to the request, as `authentication` says: in the form, in HTTP Basic, both,
    /// or a second client's; the problem when what it needs is not configured.
    private func authenticate(
        _ step: HTTPStepRequest, as authentication: HTTPStepRequest.ClientAuthentication, context: Template.Context, form: inout String?,
        headers: inout HTTPHeaders
    ) -> Problem? {
        if authentication == .secondClient {
            guard let second = targets.secondClient else { return Problem(message: "no second client is configured") }
            let credentials = "client_id=\(FormEncoding.encode(second.id))&client_secret=\(FormEncoding.encode(second.secret))"
            form = (form?.isEmpty ?? true) ? credentials : (form ?? "") + "&" + credentials
        } else if authentication != .none {
            let clientID = step.authenticationClientID?.resolve(in: context) ?? context.configuration.clientID
            guard let secret = step.authenticationSecret?.resolve(in: context) ?? targets.clientSecret else {
                return Problem(message: "this step authenticates the client, but no client secret is configured (client_secret_env)")
            }
            if authentication == .post || authentication == .both {
                let credentials = "client_id=\(FormEncoding.encode(clientID))&client_secret=\(FormEncoding.encode(secret))"
                form = (form?.isEmpty ?? true) ? credentials : (form ?? "") + "&" + credentials
            }
            if authentication == .basic || authentication == .both {
                // RFC 6749 §2.3.1: form-encode the ID and secret, then Basic.
                let pair = FormEncoding.encode(clientID) + ":" + FormEncoding.encode(secret)
                headers.append("Authorization", "Basic " + Data(pair.utf8).base64EncodedString())
            }
        }
        return nil
    }

    func build(_ step: HTTPStepRequest, conformanceCase: ConformanceCase, context: Template.Context) -> Result<Prepared, Problem> {
        guard let url = targets.endpoints[step.endpoint], let split = HTTPOrigin.split(url) else {
            return .failure(Problem(message: "the \(step.endpoint.rawValue) endpoint is not configured"))
        }
        var origin = split.origin
        let baseTarget = split.target
        if step.transportProbe != nil {
            guard origin.scheme == "https" else {
                return .failure(
                    Problem(
                        message: "the \(step.endpoint.rawValue) endpoint is configured with \(origin.scheme)://, so there is no "
                            + "TLS to judge; run against the https deployment to judge it", notApplicable: true))
            }
        }
        if step.plainHTTPProbe {
            // The same host over plain http: port 80 for https's default port, the same port when one is given.
            origin = HTTPOrigin(scheme: "http", host: origin.host, port: origin.port == 443 ? 80 : origin.port)
        }
        var headers = HTTPHeaders()
        var signInUser: Scenario?
        let user: Scenario?
        switch step.user {
        case .caseScenario: user = conformanceCase.scenario
        case .none: user = nil
        case .scenario(let scenario): user = scenario
        }
        var signIn: SignInScript?
        if let user {
            if step.endpoint == .authorize, let script = targets.signIn[user] {
                signIn = script  // the user signs in through the real pages instead of decoration headers
                signInUser = user
            } else {
                for header in targets.decorations[user] ?? [] { headers.append(header.name, header.value) }
            }
        }
        for header in step.headers { headers.append(header.name, header.value.resolve(in: context)) }

        var form = step.form.map { $0.buildQuery(in: context) }
        let authentication: HTTPStepRequest.ClientAuthentication
        switch step.authentication {
        case .configured: authentication = targets.tokenAuthentication == .basic ? .basic : .post
        default: authentication = step.authentication
        }
        if let problem = authenticate(step, as: authentication, context: context, form: &form, headers: &headers) {
            return .failure(problem)
        }
        var target = baseTarget
        var sent: [String] = []
        if let query = step.query.map({ $0.buildQuery(in: context) }), !query.isEmpty {
            target += (target.utf8.contains(0x3F) ? "&" : "?") + query
            sent.append(query)
        }
        var body: [UInt8] = []
        if let form {
            body = Array(form.utf8)
            headers.append("Content-Type", "application/x-www-form-urlencoded")
            sent.append(form)
        }
        let configured =
            [.post, .basic, .both].contains(authentication) && step.authenticationClientID == nil
            && step.authenticationSecret == nil
        return .success(
            Prepared(
                origin: origin, request: HTTPRequest(method: step.method, target: target, headers: headers, body: body),
                sentQueries: sent, usesConfiguredCredentials: configured, signIn: signIn, signInUser: signInUser))
    }

    /// A request a server may leave partly unread, on a connection of its own (no later request shares it), and
    /// whether the server read it whole: the same connection's next request (a GET of the path, no body) answered
    /// as on a fresh connection (`RequestFraming`).
    func sendAlone(_ prepared: Prepared) -> (Result<HTTPResponse, Problem>, CheckResult?) {
        let client: HTTPClient
        switch httpClient(for: prepared.origin) {
        case .failure(let problem): return (.failure(problem), nil)
        case .success(let found): client = found
        }
        let followUp = HTTPRequest(method: "GET", target: String(prepared.request.path))
        let sent: (response: HTTPResponse, followUp: Result<HTTPResponse, HTTPClient.Failure>?)
        do {
            sent = try client.sendAlone(prepared.request, followUp: followUp)
        } catch {
            return (.failure(Problem(message: error.message, inexact: error.kind == .inexact)), nil)
        }
        func reading(_ answer: Result<HTTPResponse, HTTPClient.Failure>?) -> RequestFraming.FollowUp {
            switch answer {
            case nil: .closed
            case .success(let response)?: .answered(status: response.status)
            case .failure(let failure)?: .noAnswer(failure.message)
            }
        }
        let same = reading(sent.followUp)
        var fresh: RequestFraming.FollowUp?
        if same != .closed {
            fresh = reading(Result { () throws(HTTPClient.Failure) in try client.sendAlone(followUp).response })
        }
        let probe = "\(prepared.request.method) \(prepared.request.path) with a \(prepared.request.body.count)-byte body"
        return (.success(sent.response), RequestFraming.check(probe: probe, followUp: same, fresh: fresh))
    }

    /// This worker's client for `origin`, made on first use.
    func httpClient(for origin: HTTPOrigin) -> Result<HTTPClient, Problem> {
        if let existing = clients[origin] { return .success(existing) }
        do {
            let client = try HTTPClient(
                origin: origin, network: targets.network, limits: targets.limits,
                timeouts: HTTPClient.Timeouts(connect: min(5, timeout), total: timeout))
            clients[origin] = client
            return .success(client)
        } catch {
            return .failure(Problem(message: error.message))
        }
    }

    /// Sends one request on this worker's connections; one a server may leave partly unread goes on a connection of
    /// its own (`sendAlone` also judges whether it was read whole).
    func send(_ prepared: Prepared) -> Result<HTTPResponse, Problem> {
        let client: HTTPClient
        switch httpClient(for: prepared.origin) {
        case .failure(let problem): return .failure(problem)
        case .success(let found): client = found
        }
        do {
            return .success(prepared.request.mayDesync ? try client.sendAlone(prepared.request).response : try client.send(prepared.request))
        } catch {
            return .failure(Problem(message: error.message, inexact: error.kind == .inexact))
        }
    }

    /// The start of a response's body, redacted whole before it is cut (a secret cut in half would not be found).
    static func bodyExcerpt(_ response: HTTPObservation, redactor: Redactor) -> String {
        guard !response.body.isEmpty else { return "" }
        return "\n  body: " + redactor.excerpt(String(decoding: response.body, as: UTF8.self), limit: 512)
    }
}
