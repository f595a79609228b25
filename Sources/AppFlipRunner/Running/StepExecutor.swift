import AppFlipHTTP
import AppFlipModel
import Foundation

/// Runs one case's steps on one worker's connections: builds each request, sends it, judges the answer and takes
/// the captures later steps use.
final class StepExecutor {
    private let targets: Targets
    private let configuration: RunConfiguration
    private let timeout: Double
    private let logExcerptLimit: Int
    private var linkSession: (any LinkHandlerSession)?
    private var clients: [HTTPOrigin: HTTPClient] = [:]

    init(targets: Targets, configuration: RunConfiguration, timeout: Double, logExcerptLimit: Int) {
        self.targets = targets
        self.configuration = configuration
        self.timeout = timeout
        self.logExcerptLimit = logExcerptLimit
    }

    func close() {
        linkSession?.close()
        linkSession = nil
        for client in clients.values { client.close() }
        clients = [:]
    }

    /// The outcome of running every step of a case.
    struct Outcome {
        var checks: [CheckResult] = []
        /// Set when the target misbehaved, or a needed capture was missing without a failed check to explain it.
        var failure: String?
        var evidence = Evidence()
    }

    func run(_ conformanceCase: ConformanceCase) -> Outcome {
        let generated = GeneratedValues(seed: configuration.seed, caseID: conformanceCase.id)
        var outcome = Outcome()
        var captured: [String: String] = [:]
        var secrets = targets.secrets
        for (index, step) in conformanceCase.steps.enumerated() {
            let context = Template.Context(configuration: configuration, generated: generated, captured: captured)
            let label = conformanceCase.steps.count > 1 ? "step \(index + 1): " : ""
            let observation: Observation
            let sent: [QueryParameter]
            switch step.action {
            case .link(let recipe):
                let link = recipe.build(in: context)
                let exchange = linkExchange(HandlerRequest(id: conformanceCase.id, link: link, scenario: conformanceCase.scenario))
                secrets += exchange.answer?.url.map(Redaction.secrets(in:)) ?? []
                outcome.evidence.link = Evidence.bounded(Redaction.redact(url: link), limit: 1024)
                outcome.evidence.stderr = Evidence.bounded(Redaction.scrubText(exchange.log, secrets: secrets), limit: logExcerptLimit)
                guard let answer = exchange.answer else {
                    outcome.evidence.answer = Redaction.scrubText(exchange.rawAnswer, secrets: secrets)
                    outcome.failure = label + (exchange.failure ?? "no answer")
                    return outcome
                }
                observation = .link(answer)
                sent = URLParts(link).parameters
                outcome.evidence.answer = Judge(context: context).summary(observation)
            case .http(let request):
                let built = build(request, conformanceCase: conformanceCase, context: context)
                guard case .success(let prepared) = built else {
                    if case .failure(let problem) = built { outcome.failure = label + problem.message }
                    return outcome
                }
                let transcript = "\(label)\(prepared.request.method) \(Redaction.redact(url: prepared.origin.description + prepared.request.target))"
                switch send(prepared) {
                case .failure(let problem):
                    outcome.evidence.exchanges.append(Redaction.scrubText(transcript + "\n  → no response: \(problem.message)", secrets: secrets))
                    outcome.failure = label + problem.message
                    return outcome
                case .success(let response):
                    let http = HTTPObservation(status: response.status, headers: response.headers.fields.map { ($0.name, $0.value) },
                                               body: response.body)
                    observation = .http(http)
                    sent = prepared.sentParameters
                    secrets += secretsIn(http)
                    outcome.evidence.exchanges.append(Redaction.scrubText(
                        transcript + (prepared.request.body.isEmpty ? "" : "\n  body: " + Redaction.redact(query: Substring(String(decoding: prepared.request.body, as: UTF8.self))))
                            + "\n  → " + Judge(context: context).summary(observation) + bodyExcerpt(http), secrets: secrets))
                }
            }
            let judge = Judge(context: Template.Context(configuration: configuration, generated: generated, sent: sent, captured: captured))
            let results = judge.judge(step.checks, observation: observation)
            outcome.checks += results
            for capture in step.captures {
                if let value = value(of: capture.source, in: observation) {
                    captured[capture.name] = value
                    continue
                }
                if results.contains(where: { $0.verdict == .fail }) { return outcome }  // the failed check explains it
                outcome.failure = label + "could not capture '\(capture.name)' (\(describe(capture.source))) from the answer, so later steps cannot run"
                return outcome
            }
        }
        return outcome
    }

    // MARK: - Link steps

    private func linkExchange(_ request: HandlerRequest) -> TargetExchange {
        guard let target = targets.linkHandler else { return TargetExchange(failure: "no link handler is configured") }
        if linkSession == nil { linkSession = target.makeSession() }
        return linkSession?.exchange(request, timeout: timeout) ?? TargetExchange(failure: "no link handler session")
    }

    // MARK: - HTTP steps

    struct Prepared {
        var origin: HTTPOrigin
        var request: HTTPRequest
        var sentParameters: [QueryParameter]
    }

    struct Problem: Error {
        var message: String
    }

    private func build(_ step: HTTPStepRequest, conformanceCase: ConformanceCase, context: Template.Context) -> Result<Prepared, Problem> {
        guard let url = targets.endpoints[step.endpoint], let (origin, baseTarget) = HTTPOrigin.split(url) else {
            return .failure(Problem(message: "the \(step.endpoint.rawValue) endpoint is not configured"))
        }
        var headers = HTTPHeaders()
        let user: Scenario?
        switch step.user {
        case .caseScenario: user = conformanceCase.scenario
        case .none: user = nil
        case .scenario(let scenario): user = scenario
        }
        if let user {
            for header in targets.decorations[user] ?? [] { headers.append(header.name, header.value) }
        }
        for header in step.headers { headers.append(header.name, header.value.resolve(in: context)) }

        var form = step.form.map { $0.buildQuery(in: context) }
        let authentication: HTTPStepRequest.ClientAuthentication
        switch step.authentication {
        case .configured: authentication = targets.tokenAuthentication == .basic ? .basic : .post
        default: authentication = step.authentication
        }
        if authentication != .none {
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
        var sent: [QueryParameter] = []
        if let query = step.query.map({ $0.buildQuery(in: context) }), !query.isEmpty {
            target += (target.contains("?") ? "&" : "?") + query
            sent = QueryParameter.parse(query: Substring(query))
        }
        var body: [UInt8] = []
        if let form {
            body = Array(form.utf8)
            headers.append("Content-Type", "application/x-www-form-urlencoded")
            sent += QueryParameter.parse(query: Substring(form))
        }
        return .success(Prepared(origin: origin, request: HTTPRequest(method: step.method, target: target, headers: headers, body: body),
                                 sentParameters: sent))
    }

    private func send(_ prepared: Prepared) -> Result<HTTPResponse, Problem> {
        let client: HTTPClient
        if let existing = clients[prepared.origin] {
            client = existing
        } else {
            do {
                client = try HTTPClient(origin: prepared.origin, limits: targets.limits,
                                        timeouts: HTTPClient.Timeouts(connect: min(5, timeout), total: timeout))
            } catch {
                return .failure(Problem(message: error.message))
            }
            clients[prepared.origin] = client
        }
        do {
            return .success(try client.send(prepared.request))
        } catch {
            return .failure(Problem(message: error.message))
        }
    }

    // MARK: - Captures and evidence

    private func value(of source: Capture.Source, in observation: Observation) -> String? {
        switch source {
        case .urlParameter(let name):
            guard let url = observation.answer.url else { return nil }
            let matches = URLParts(url).parameters.all(named: name)
            guard matches.count == 1, let bytes = matches[0].value, !bytes.isEmpty else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        case .jsonMember(let member):
            guard case .http(let response) = observation,
                  let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] else { return nil }
            if let text = object[member] as? String, !text.isEmpty { return text }
            if let number = object[member] as? NSNumber { return number.stringValue }
            return nil
        case .header(let name):
            guard case .http(let response) = observation else { return nil }
            return response.header(name)
        }
    }

    private func describe(_ source: Capture.Source) -> String {
        switch source {
        case .urlParameter(let name): "the \(name) parameter of the redirect or opened URL"
        case .jsonMember(let member): "the JSON member \(member)"
        case .header(let name): "the \(name) header"
        }
    }

    /// Token-like values in a JSON body, so they are hidden wherever they show up later.
    private func secretsIn(_ response: HTTPObservation) -> [String] {
        var found: [String] = []
        if let location = response.header("Location") { found += Redaction.secrets(in: location) }
        if let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] {
            for (key, value) in object where Redaction.sensitiveParameters.contains(key.lowercased()) || key.lowercased().hasSuffix("_token") {
                if let text = value as? String, text.count >= 4 { found.append(text) }
            }
        }
        return found
    }

    private func bodyExcerpt(_ response: HTTPObservation) -> String {
        guard !response.body.isEmpty else { return "" }
        return "\n  body: " + Evidence.bounded(String(decoding: response.body, as: UTF8.self), limit: 512)
    }
}
