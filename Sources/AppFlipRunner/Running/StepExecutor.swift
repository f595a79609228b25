import AppFlipHTTP
import AppFlipModel
import Foundation

/// Runs one case's steps on one worker's connections: builds each request, sends it, judges the answer and takes
/// the captures later steps use.
final class StepExecutor {
    let targets: Targets
    let configuration: RunConfiguration
    let timeout: Double
    let logExcerptLimit: Int
    private var linkSession: (any LinkHandlerSession)?
    private var clients: [HTTPOrigin: HTTPClient] = [:]
    /// The current case's app process and test authorization server (native-client profile).
    var nativeFlow: (session: NativeClientSession, server: TestAuthorizationServer)?

    init(targets: Targets, configuration: RunConfiguration, timeout: Double, logExcerptLimit: Int) {
        self.targets = targets
        self.configuration = configuration
        self.timeout = timeout
        self.logExcerptLimit = logExcerptLimit
        runRedactor = Redactor(secrets: Self.secrets(of: targets, clientID: configuration.clientID))
    }

    /// Hides the configured secrets, and the Basic credentials built from them (base64 of `id:secret`, raw and
    /// form-encoded), which a server that echoes its request headers would otherwise show. Built once per worker;
    /// each case adds the codes and tokens it sees.
    let runRedactor: Redactor

    private static func secrets(of targets: Targets, clientID: String) -> [String] {
        var pairs: [(String, String)] = []
        if let secret = targets.clientSecret { pairs.append((clientID, secret)) }
        if let second = targets.secondClient { pairs.append((second.id, second.secret)) }
        let basic = pairs.flatMap { id, secret in
            [id + ":" + secret, FormEncoding.encode(id) + ":" + FormEncoding.encode(secret)].map { Data($0.utf8).base64EncodedString() }
        }
        return targets.secrets + basic
    }

    func close() {
        linkSession?.close()
        linkSession = nil
        endNativeFlow()
        for client in clients.values { client.close() }
        clients = [:]
    }

    /// The outcome of running every step of a case.
    struct Outcome {
        var checks: [CheckResult] = []
        /// Set when the target misbehaved, or a needed capture was missing without a failed check to explain it.
        var failure: String?
        /// Set when a step could not be sent as written (https cannot carry it byte for byte): the case does not apply.
        var skipReason: String?
        /// Set when the suite itself ran out of resources: the case says nothing about the target.
        var suiteFault: String?
        /// A fault of the request this worker sent before (a persistent handler's extra output).
        var previousRequestFault: String?
        var evidence = Evidence()
        /// What the target made of the configured client credentials, when a step sent them.
        var configuredCredentials: ConfiguredCredentials?
        /// Every authorization code a `code: fresh` check accepted, with that check's requirement.
        var issuedCodes: [IssuedCode] = []
        /// What the probes that may leave part of a request unread showed about the server's framing (TOK-GEN-008):
        /// the suite's own checks, added to the case's after its steps (one, the worst, however many rounds).
        var framing: CheckResult?
        /// The first 5xx answer of the case (TOK-GEN-009), added to its checks after its steps.
        var serverError: CheckResult?
        /// A redirect that never reached the app (NAT-REDIR-004-S), added unless a check of the case said so already.
        var undeliveredRedirect: CheckResult?
        /// The reasons given to checks of steps not sent because an earlier answer the sources allow left nothing
        /// for them (`when_captured`): a condition of the requirement that this target does not meet.
        var unmetConditions: Set<String> = []
        /// Hides every secret the case met (the configured ones, and the codes and tokens it saw): what the case's
        /// result is redacted with, whole, before anything reads it (`Redactor.redact(_:CaseResult)`).
        var redactor = Redactor()
    }

    func run(_ conformanceCase: ConformanceCase) -> Outcome {
        let generated = GeneratedValues(seed: configuration.seed, caseID: conformanceCase.id)
        var state = CaseState(outcome: Outcome(), redactor: runRedactor)
        // A case with `repeat: N` runs its whole sequence N times: ordinary checks must hold every time (the first
        // failure is kept); sample checks judge the values captured over every round, after the last.
        var merged: [CheckResult] = []
        var mergedFlags: [Bool] = []
        for round in 0..<conformanceCase.repeatCount {
            state.outcome.checks = []
            state.sampleFlags = []
            let completed = runSteps(conformanceCase, generated: generated, round: round, state: &state)
            if merged.isEmpty || merged.count != state.outcome.checks.count
                || zip(merged, state.outcome.checks).contains(where: { $0.requirement != $1.requirement }) {
                merged = state.outcome.checks
                mergedFlags = state.sampleFlags
            } else {
                merged = zip(zip(merged, state.outcome.checks), mergedFlags).map { pair, isSample in
                    let (earlier, latest) = pair
                    return isSample || earlier.held || !earlier.isApplicable ? latest : earlier
                }
            }
            if !completed { break }
        }
        state.outcome.checks = merged
        endNativeFlow()
        return state.finished
    }

    /// Runs every step once; false when the case ended early (the outcome says why).
    private func runSteps(_ conformanceCase: ConformanceCase, generated: GeneratedValues, round: Int, state: inout CaseState) -> Bool {
        for (index, step) in conformanceCase.steps.enumerated() {
            let label = (conformanceCase.repeatCount > 1 ? "round \(round + 1), " : "") + (conformanceCase.steps.count > 1 ? "step \(index + 1): " : "")
            if let why = notSent(step, state: state) {
                let judge = Judge(context: Template.Context(configuration: configuration, generated: generated, captured: state.captured))
                let reason = label + "not sent: " + why
                if step.whenCaptured.contains(where: { state.captured[$0] == nil }) { state.outcome.unmetConditions.insert(reason) }
                state.outcome.checks += step.checks.map { group in
                    CheckResult.notApplicable(group.requirement, expected: group.expectation.checks.map(judge.expected).joined(separator: ", "),
                                              reason: reason)
                }
                state.sampleFlags += step.checks.map { _ in false }
                continue
            }
            if let seconds = step.wait?.seconds(in: configuration) {
                Thread.sleep(forTimeInterval: seconds)
            }
            let sampleFlags = Self.sampleFlags(step.checks)
            var merged: [CheckResult] = []
            for repetition in 0..<step.repeatCount {
                // An app that can no longer be asked anything is not asked again; what it answered stands, and a
                // sample cut short is not judged.
                if repetition > 0, let why = notSent(step, state: state) {
                    let reason = label + "only \(repetition) of \(step.repeatCount) sent: " + why
                    merged = zip(merged, sampleFlags).map { result, isSample in
                        isSample ? CheckResult.notApplicable(result.requirement, expected: result.expected, reason: reason) : result
                    }
                    break
                }
                guard let (observation, sent) = send(step, of: conformanceCase, label: label, generated: generated, stepIndex: index,
                                                     repetition: round * 1000 + repetition,
                                                     recordEvidence: round == 0 && (repetition == 0 || step.repeatCount == 1), state: &state) else {
                    state.outcome.checks += merged
                    state.sampleFlags += sampleFlags.prefix(merged.count)
                    return false
                }
                var missing: Capture?
                for capture in step.captures {
                    if let value = value(of: capture.source, in: observation) {
                        state.captured[capture.name] = value
                        state.samples[capture.name, default: []].append(value)
                    } else if missing == nil {
                        missing = capture
                    }
                }
                let results = Self.judge(step, observation: observation, sent: sent, configuration: configuration, generated: generated,
                                         state: &state)
                merged = merged.isEmpty ? results : zip(merged, zip(results, sampleFlags)).map { earlier, pair in
                    // Ordinary checks must hold every time: keep the first failure. Sample checks count at the end.
                    let (latest, isSample) = pair
                    return isSample || earlier.held ? latest : earlier
                }
                if let missing, !Self.laterStepsTolerate(missing.name, after: index, in: conformanceCase) {
                    state.outcome.checks += merged
                    state.sampleFlags += sampleFlags
                    if merged.contains(where: \.isFinding) { return false }  // the failed (or warned) check explains it
                    state.outcome.failure = label + "could not capture '\(missing.name)' (\(describe(missing.source))) from the answer, so later steps cannot run"
                    return false
                }
            }
            state.outcome.checks += merged
            state.sampleFlags += sampleFlags
        }
        return true
    }

    /// Why the step does not apply and is not sent, or nil when it is sent.
    private func notSent(_ step: Step, state: CaseState) -> String? {
        if let missing = step.whenCaptured.first(where: { state.captured[$0] == nil }) {
            // An earlier answer the sources allow left nothing for this step to use.
            return "an earlier step captured no '\(missing)', which its checks allow"
        }
        if case .native = step.action, let why = state.nativeNotSent { return why }
        return nil
    }

    /// Judges one sending of a step against its checks, keeping the codes its `code: fresh` checks accepted.
    static func judge(_ step: Step, observation: Observation, sent: [QueryParameter], configuration: RunConfiguration,
                      generated: GeneratedValues, state: inout CaseState) -> [CheckResult] {
        let judge = Judge(context: Template.Context(configuration: configuration, generated: generated, sent: sent,
                                                    captured: state.captured, samples: state.samples))
        let results = judge.judge(step.checks, observation: observation)
        state.outcome.issuedCodes += IssuedCode.accepted(by: step.checks, results: results, in: observation)
        return results
    }

    /// True when every step after `index` is guarded by `when_captured` on `name`, so its absence ends nothing.
    static func laterStepsTolerate(_ name: String, after index: Int, in conformanceCase: ConformanceCase) -> Bool {
        let later = conformanceCase.steps.dropFirst(index + 1)
        return !later.isEmpty && later.allSatisfy { $0.whenCaptured.contains(name) }
    }

    /// What a case accumulates from step to step.
    struct CaseState {
        var outcome: Outcome
        /// Hides the secrets met so far: its excerpts are redacted whole before they are cut.
        var redactor: Redactor
        var captured: [String: String] = [:]
        var samples: [String: [String]] = [:]
        /// For each check result of the current round, whether it is a sample check.
        var sampleFlags: [Bool] = []
        /// The authorization request the app opened last, and where the server's answer sent it (native-client profile).
        var nativeAuthorizationURL: String?
        var nativeRedirect: String?
        /// Set once the app can no longer be asked anything (a redirect never reached it, and it may still be
        /// waiting): why the later native steps are not sent.
        var nativeNotSent: String?

        /// The outcome, with the redactor that knows every secret the case met.
        var finished: Outcome {
            var outcome = outcome
            outcome.redactor = redactor
            if let framing = outcome.framing { outcome.checks.append(framing) }
            if let serverError = outcome.serverError { outcome.checks.append(serverError) }
            if let undelivered = outcome.undeliveredRedirect,
               !outcome.checks.contains(where: { $0.requirement.id == undelivered.requirement.id && $0.isFinding }) {
                outcome.checks.append(undelivered)
            }
            return outcome
        }
    }

    /// For each result `judge` returns for `checks`, whether it is a sample check (judged once, at the end).
    static func sampleFlags(_ checks: [CheckGroup]) -> [Bool] {
        checks.flatMap { group -> [Bool] in
            switch group.expectation {
            case .all(let checks): checks.map { $0.base.scope == .samples }
            case .oneOf: [false]
            }
        }
    }

    /// Sends one step once; nil when the target failed (the outcome then says why).
    private func send(_ step: Step, of conformanceCase: ConformanceCase, label: String, generated: GeneratedValues, stepIndex: Int,
                      repetition: Int, recordEvidence: Bool, state: inout CaseState) -> (Observation, [QueryParameter])? {
        let context = Template.Context(configuration: configuration, generated: generated, captured: state.captured, samples: state.samples)
        switch step.action {
        case .native(let native):
            return sendNative(native, label: label, recordEvidence: recordEvidence, state: &state).map { ($0, []) }
        case .link(let recipe):
            let sent = sendLink(recipe, of: conformanceCase, generated: generated, stepIndex: stepIndex, repetition: repetition, context: context)
            return Self.absorb(sent, label: label, context: context, logExcerptLimit: logExcerptLimit, state: &state)
        case .http(let request):
            if let limit = request.burst {
                guard let prepared = prepare(request, of: conformanceCase, label: label, context: context, state: &state) else { return nil }
                return burst(prepared, limit: limit, label: label, state: &state).map { ($0, prepared.sentParameters) }
            }
            if request.transportProbe == .legacyTLS {
                guard let prepared = prepare(request, of: conformanceCase, label: label, context: context, state: &state) else { return nil }
                return handshake(prepared.origin, label: label, state: &state).map { ($0, []) }
            }
            let sent = sendHTTP(request, of: conformanceCase, context: context)
            return Self.absorb(sent, of: step, label: label, context: context, recordEvidence: recordEvidence, state: &state)
        }
    }

    /// The step's request built, or nil when it cannot be (the outcome then says why).
    private func prepare(_ request: HTTPStepRequest, of conformanceCase: ConformanceCase, label: String, context: Template.Context,
                         state: inout CaseState) -> Prepared? {
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
    private static func record(unbuilt problem: Problem, label: String, state: inout CaseState) {
        if problem.notApplicable { state.outcome.skipReason = label + problem.message } else { state.outcome.failure = label + problem.message }
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
                return SentHTTP(request: request, built: .success(prepared), answer: answer, sentAt: sentAt, milliseconds: elapsed(), framing: framing)
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
        switch browser.walk(prepared.request, origin: prepared.origin) {
        case .success(let walk):
            return SentHTTP(request: request, built: .success(prepared), answer: .success(walk.response), walk: walk, sentAt: sentAt,
                            milliseconds: elapsed())
        case .failure(let problem):
            return SentHTTP(request: request, built: .success(prepared), answer: .failure(problem), sentAt: sentAt, milliseconds: elapsed())
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
    static func absorb(_ sent: SentHTTP, of step: Step, label: String, context: Template.Context, recordEvidence: Bool,
                       state: inout CaseState) -> (Observation, [QueryParameter])? {
        let prepared: Prepared
        switch sent.built {
        case .failure(let problem):
            Self.record(unbuilt: problem, label: label, state: &state)
            return nil
        case .success(let built): prepared = built
        }
        let transcript = "\(label)\(prepared.request.method) \(Redaction.redact(url: prepared.origin.description + prepared.request.target))"
        let requestHeaders = recordEvidence ? Evidence.headers(prepared.request.headerLines(host: prepared.origin.hostHeader)) : []
        var walkPages: [PageHop] = []
        if let walk = sent.walk {
            walkPages = walk.pages
            if recordEvidence {
                state.outcome.evidence.exchanges.append(
                    Evidence.Exchange(label + "signed in through the pages:\n  " + walk.hops(of: walkPages).joined(separator: "\n  ")))
            }
        }
        switch sent.answer {
        case .failure(let problem):
            if problem.inexact {
                // The platform could not carry the request or its answer as is: the case does not apply here.
                state.outcome.skipReason = label + problem.message
                return nil
            }
            state.outcome.evidence.exchanges.append(Evidence.Exchange(transcript + "\n  → no response: \(problem.message)", sentAt: sent.sentAt,
                                                                      milliseconds: sent.milliseconds, requestHeaders: requestHeaders))
            if sent.request.plainHTTPProbe {
                // For a plain-http probe no answer is an answer: nothing is served there.
                return (.unreachable(problem.message), prepared.sentParameters)
            }
            state.outcome.failure = label + problem.message
            return nil
        case .success(let response):
            if let framing = sent.framing {
                // The worst of the case's rounds is kept.
                if state.outcome.framing.map({ $0.verdict < framing.verdict || !$0.isApplicable }) ?? true { state.outcome.framing = framing }
            }
            if state.outcome.serverError == nil {
                state.outcome.serverError = ServerErrorAnswer.check(status: response.status,
                                                                    request: "\(label)\(prepared.request.method) \(prepared.request.path)")
            }
            if response.status == 429 {
                // Throttled: the answer says nothing about the requirement under test (bursts judge 429 themselves).
                state.outcome.evidence.exchanges.append(
                    Evidence.Exchange(transcript + "\n  → HTTP 429", sentAt: sent.sentAt, milliseconds: sent.milliseconds, requestHeaders: requestHeaders,
                                      responseHeaders: Evidence.headers(response.headers.fields.map { ($0.name, $0.value) })))
                state.outcome.failure = label + "the target throttled this request (429 Too Many Requests"
                    + (response.headers["Retry-After"].map { ", Retry-After: \($0)" } ?? "") + "), so its answer judges nothing; "
                    + "rerun with fewer --jobs, or allow the suite's address more requests"
                return nil
            }
            let http = HTTPObservation(status: response.status, headers: response.headers.fields.map { ($0.name, $0.value) },
                                       body: response.body, walk: walkPages)
            let observation = Observation.http(http)
            state.redactor.add(secretsIn(http))
            if prepared.usesConfiguredCredentials, let verdict = ConfiguredCredentials.verdict(on: http) {
                state.outcome.configuredCredentials = state.outcome.configuredCredentials == .accepted ? .accepted : verdict
            }
            if recordEvidence {
                let body = prepared.request.body.isEmpty ? ""
                    : "\n  body: " + Redaction.redact(query: Substring(String(decoding: prepared.request.body, as: UTF8.self)))
                let repeated = step.repeatCount > 1 ? " (first of \(step.repeatCount))" : ""
                state.outcome.evidence.exchanges.append(
                    Evidence.Exchange(transcript + repeated + body + "\n  → " + Judge(context: context).summary(observation)
                                        + bodyExcerpt(http, redactor: state.redactor),
                                      sentAt: sent.sentAt, milliseconds: sent.milliseconds, requestHeaders: requestHeaders,
                                      responseHeaders: Evidence.headers(http.headers)))
            }
            return (observation, prepared.sentParameters)
        }
    }

    // MARK: - Link steps

    /// A link as sent: the exchange, or why nothing was sent.
    struct SentLink: Sendable {
        var link: String
        var exchange: TargetExchange?
        /// Set when building the link used up the step's time: nothing was sent.
        var unsent: String?
    }

    /// Sends the one step of a case whose only remaining work is judging (`DeferredJudgement.applies`) and returns
    /// that work, to be done on any thread; nil for any other case, which `run` sends and judges whole.
    func sendOnly(_ conformanceCase: ConformanceCase) -> DeferredJudgement? {
        guard DeferredJudgement.applies(to: conformanceCase), let step = conformanceCase.steps.first else { return nil }
        let generated = GeneratedValues(seed: configuration.seed, caseID: conformanceCase.id)
        let context = Template.Context(configuration: configuration, generated: generated, captured: [:], samples: [:])
        let sent: DeferredJudgement.Sent
        switch step.action {
        case .link(let recipe):
            sent = .link(sendLink(recipe, of: conformanceCase, generated: generated, stepIndex: 0, repetition: 0, context: context))
        case .http(let request):
            sent = .http(sendHTTP(request, of: conformanceCase, context: context))
        case .native:
            return nil
        }
        return DeferredJudgement(conformanceCase: conformanceCase, step: step, sent: sent, generated: generated, configuration: configuration,
                                 redactor: runRedactor, logExcerptLimit: logExcerptLimit)
    }

    /// Builds the step's link and exchanges it with the link handler (this worker's session).
    private func sendLink(_ recipe: LinkRecipe, of conformanceCase: ConformanceCase, generated: GeneratedValues, stepIndex: Int,
                          repetition: Int, context: Template.Context) -> SentLink {
        // Building the link (a large `${repeat}` is bounded at load, yet not free) is part of the step's time.
        let building = ContinuousClock.now
        let link = recipe.build(in: context)
        let spent = Self.seconds(ContinuousClock.now - building)
        guard spent < timeout else {
            return SentLink(link: link, unsent: "building the link took \(secondsText(spent)) s, all of the step's \(secondsText(timeout)) s; "
                            + "nothing was sent (shorten its ${repeat} values or raise --timeout)")
        }
        // An opaque id: the case ID would let a "test mode" adapter answer from a lookup table.
        let requestID = generated.requestID(step: stepIndex, repetition: repetition)
        return SentLink(link: link, exchange: linkExchange(HandlerRequest(id: requestID, link: link, scenario: conformanceCase.scenario),
                                                           timeout: timeout - spent))
    }

    /// What a sent link shows: the evidence (redacted) and the observation to judge, or nil when the handler gave no
    /// answer (the outcome then says why). Needs none of the worker's connections.
    static func absorb(_ sent: SentLink, label: String, context: Template.Context, logExcerptLimit: Int,
                       state: inout CaseState) -> (Observation, [QueryParameter])? {
        guard let exchange = sent.exchange else {
            state.outcome.failure = label + (sent.unsent ?? "nothing was sent")
            return nil
        }
        let link = sent.link
        state.redactor.add(exchange.answer?.url.map(Redaction.secrets(in:)) ?? [])
        if let fault = exchange.previousRequestFault { state.outcome.previousRequestFault = state.redactor.redact(fault) }
        state.outcome.evidence.link = state.redactor.excerpt(Redaction.redact(url: link), limit: 1024)
        state.outcome.evidence.stderr = state.redactor.excerpt(exchange.log, limit: logExcerptLimit)
        guard let answer = exchange.answer else {
            if exchange.suiteFault { state.outcome.suiteFault = exchange.failure }
            state.outcome.evidence.answer = state.redactor.excerpt(exchange.rawAnswer, limit: TargetExchange.answerExcerptLimit)
            state.outcome.failure = label + (exchange.failure ?? "no answer")
            return nil
        }
        let observation = Observation.link(answer)
        state.outcome.evidence.answer = Judge(context: context).summary(observation)
        return (observation, URLParts(link).parameters)
    }

    private func linkExchange(_ request: HandlerRequest, timeout: Double) -> TargetExchange {
        guard let target = targets.linkHandler else { return TargetExchange(failure: "no link handler is configured") }
        if linkSession == nil { linkSession = target.makeSession() }
        return linkSession?.exchange(request, timeout: timeout) ?? TargetExchange(failure: "no link handler session")
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    // MARK: - HTTP steps

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
    }

    struct Problem: Error, Sendable {
        var message: String
        var inexact = false
        /// The step cannot be judged in this configuration: the case is skipped with the message.
        var notApplicable = false
    }

    private func build(_ step: HTTPStepRequest, conformanceCase: ConformanceCase, context: Template.Context) -> Result<Prepared, Problem> {
        guard let url = targets.endpoints[step.endpoint], let split = HTTPOrigin.split(url) else {
            return .failure(Problem(message: "the \(step.endpoint.rawValue) endpoint is not configured"))
        }
        var origin = split.origin
        let baseTarget = split.target
        if step.transportProbe != nil {
            guard origin.scheme == "https" else {
                return .failure(Problem(message: "the \(step.endpoint.rawValue) endpoint is configured with \(origin.scheme)://, so there is no "
                                        + "TLS to judge; run against the https deployment to judge it", notApplicable: true))
            }
        }
        if step.plainHTTPProbe {
            // The same host over plain http: port 80 for https's default port, the same port when one is given.
            origin = HTTPOrigin(scheme: "http", host: origin.host, port: origin.port == 443 ? 80 : origin.port)
        }
        var headers = HTTPHeaders()
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
        if authentication == .secondClient {
            guard let second = targets.secondClient else { return .failure(Problem(message: "no second client is configured")) }
            let credentials = "client_id=\(FormEncoding.encode(second.id))&client_secret=\(FormEncoding.encode(second.secret))"
            form = (form?.isEmpty ?? true) ? credentials : (form ?? "") + "&" + credentials
        } else if authentication != .none {
            let clientID = step.authenticationClientID?.resolve(in: context) ?? context.configuration.clientID
            guard let secret = step.authenticationSecret?.resolve(in: context) ?? targets.clientSecret else {
                return .failure(Problem(message: "this step authenticates the client, but no client secret is configured (client_secret_env)"))
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
        let configured = [.post, .basic, .both].contains(authentication) && step.authenticationClientID == nil
            && step.authenticationSecret == nil
        return .success(Prepared(origin: origin, request: HTTPRequest(method: step.method, target: target, headers: headers, body: body),
                                 sentQueries: sent, usesConfiguredCredentials: configured, signIn: signIn))
    }

    /// A `burst:` request: the same request up to `limit` times, stopping at the first sign of throttling. The
    /// observation is the last answer, carrying what the burst saw; a connection that fails after answers came is
    /// itself a sign (the server or its network stopped taking requests).
    private func burst(_ prepared: Prepared, limit: Int, label: String, state: inout CaseState) -> Observation? {
        var statuses: [Int] = []
        var first = 0
        var slowest = 0
        var sign: String?
        var last: HTTPResponse?
        var dropped: String?
        let burstStarted = Date()
        for attempt in 1...limit {
            let started = Date()
            let answer = send(prepared)
            let milliseconds = Int(Date().timeIntervalSince(started) * 1000)
            switch answer {
            case .failure(let problem):
                guard attempt > 1 else {
                    state.outcome.failure = label + problem.message
                    return nil
                }
                dropped = "attempt \(attempt) got no answer: \(problem.message)"
            case .success(let response):
                if attempt == 1 { first = milliseconds }
                slowest = max(slowest, milliseconds)
                statuses.append(response.status)
                last = response
                sign = Burst.sign(status: response.status, retryAfter: response.headers["Retry-After"], milliseconds: milliseconds,
                                  firstMilliseconds: first, attempt: attempt)
            }
            if sign != nil || dropped != nil { break }
        }
        let summary = Burst(attempts: statuses.count + (dropped == nil ? 0 : 1), limit: limit, sign: sign ?? dropped,
                            statuses: Burst.runs(statuses), firstMilliseconds: first, slowestMilliseconds: slowest)
        let transcript = "\(label)\(prepared.request.method) \(Redaction.redact(url: prepared.origin.description + prepared.request.target)) "
            + "(a burst)\n  → \(summary.summary)"
        state.outcome.evidence.exchanges.append(
            Evidence.Exchange(transcript, sentAt: burstStarted, milliseconds: Int((Date().timeIntervalSince(burstStarted) * 1000).rounded()),
                              requestHeaders: Evidence.headers(prepared.request.headerLines(host: prepared.origin.hostHeader)),
                              responseHeaders: last.map { Evidence.headers($0.headers.fields.map { ($0.name, $0.value) }) } ?? []))
        guard let last else { return nil }
        var http = HTTPObservation(status: last.status, headers: last.headers.fields.map { ($0.name, $0.value) }, body: last.body)
        http.burst = summary
        return .http(http)
    }

    /// A `tls: legacy` probe: a ClientHello offering only TLS 1.0 and 1.1 to the endpoint's host and port.
    private func handshake(_ origin: HTTPOrigin, label: String, state: inout CaseState) -> Observation? {
        let offer = TLSHello.Offer.legacyOnly
        let answer: TLSHello.Answer
        let started = Date()
        do {
            answer = try TLSHello.probe(host: origin.host, port: origin.port, offer: offer, timeout: min(5, timeout))
        } catch {
            state.outcome.failure = label + error.message
            return nil
        }
        var version: UInt16?
        if case .accepted(let picked, _, _) = answer { version = picked }
        let observation = Observation.handshake(TLSHandshake(offer: offer.description, version: version, answer: answer.summary))
        state.outcome.evidence.exchanges.append(
            Evidence.Exchange("\(label)TLS handshake with \(origin.host):\(origin.port): \(offer.description)\n  → \(observation.summary)",
                              sentAt: started, milliseconds: Int((Date().timeIntervalSince(started) * 1000).rounded())))
        return observation
    }

    /// A request a server may leave partly unread, on a connection of its own (no later request shares it), and
    /// whether the server read it whole: the same connection's next request (a GET of the path, no body) answered
    /// as on a fresh connection (`RequestFraming`).
    private func sendAlone(_ prepared: Prepared) -> (Result<HTTPResponse, Problem>, CheckResult?) {
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
        guard prepared.origin.scheme == "http" else { return (.success(sent.response), nil) }
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
    private func httpClient(for origin: HTTPOrigin) -> Result<HTTPClient, Problem> {
        if let existing = clients[origin] { return .success(existing) }
        do {
            let client = try HTTPClient(origin: origin, limits: targets.limits, timeouts: HTTPClient.Timeouts(connect: min(5, timeout), total: timeout))
            clients[origin] = client
            return .success(client)
        } catch {
            return .failure(Problem(message: error.message))
        }
    }

    /// Sends one request on this worker's connections; one a server may leave partly unread goes on a connection of
    /// its own (`sendAlone` also judges whether it was read whole).
    private func send(_ prepared: Prepared) -> Result<HTTPResponse, Problem> {
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

    // MARK: - Captures and evidence

    private func value(of source: Capture.Source, in observation: Observation) -> String? {
        switch source {
        case .urlParameter(let name):
            var opened = observation.answer.url
            if case .native(let native) = observation { opened = native.authorizationURL }  // the app's authorization request
            guard let url = opened else { return nil }
            let matches = URLParts(url).parameters.all(named: name)
            guard matches.count == 1, let bytes = matches[0].value, !bytes.isEmpty else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        case .jsonMember(let member):
            guard case .http(let response) = observation,
                  let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] else { return nil }
            if let text = object[member] as? String, !text.isEmpty { return text }
            if let number = object[member] as? NSNumber {
                // A JSON false is no value: `when_captured` then reads it as "not advertised".
                if String(cString: number.objCType) == "c" { return number.boolValue ? "true" : nil }
                return number.stringValue
            }
            return nil
        case .header(let name):
            guard case .http(let response) = observation else { return nil }
            return response.header(name)
        case .body:
            guard case .http(let response) = observation, !response.body.isEmpty else { return nil }
            return response.bodyText
        }
    }

    private func describe(_ source: Capture.Source) -> String {
        switch source {
        case .urlParameter(let name): "the \(name) parameter of the redirect or opened URL"
        case .jsonMember(let member): "the JSON member \(member)"
        case .header(let name): "the \(name) header"
        case .body: "the response body"
        }
    }

    /// Token-like values in a JSON body, so they are hidden wherever they show up later.
    private static func secretsIn(_ response: HTTPObservation) -> [String] {
        var found: [String] = []
        if let location = response.header("Location") { found += Redaction.secrets(in: location) }
        if let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] {
            for (key, value) in object where Redaction.sensitiveParameters.contains(key.lowercased()) || key.lowercased().hasSuffix("_token") {
                if let text = value as? String, text.count >= 4 { found.append(text) }
            }
        }
        return found
    }

    /// The start of a response's body, redacted whole before it is cut (a secret cut in half would not be found).
    private static func bodyExcerpt(_ response: HTTPObservation, redactor: Redactor) -> String {
        guard !response.body.isEmpty else { return "" }
        return "\n  body: " + redactor.excerpt(String(decoding: response.body, as: UTF8.self), limit: 512)
    }
}
