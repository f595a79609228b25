/// Judges a handler's answer against a case's checks. Pure: the same inputs always give the same results.
public struct Judge: Sendable {
    /// The link that was sent, exactly.
    public var sentLink: String
    public var context: Template.Context

    public init(sentLink: String, configuration: RunConfiguration, generated: GeneratedValues) {
        self.sentLink = sentLink
        let sent = URLParts(sentLink).parameters
        self.context = Template.Context(configuration: configuration, generated: generated, sent: sent)
    }

    /// A judge for any step: `context.sent` holds the parameters that were sent (query or form).
    public init(context: Template.Context) {
        self.sentLink = ""
        self.context = context
    }

    /// Judges a link handler's answer.
    public func judge(_ checks: [CheckGroup], answer: HandlerAnswer) -> [CheckResult] {
        judge(checks, observation: .link(answer))
    }

    /// One result per assertion of an `all` group, one per `one_of` group.
    public func judge(_ checks: [CheckGroup], observation: Observation) -> [CheckResult] {
        var results: [CheckResult] = []
        for group in checks {
            switch group.expectation {
            case .all(let assertions):
                for assertion in assertions {
                    let outcome = evaluate(assertion, observation)
                    results.append(CheckResult(requirement: group.requirement, expected: outcome.expected, observed: outcome.observed,
                                               verdict: outcome.held ? .pass : group.requirement.level.violationVerdict))
                }
            case .oneOf(let alternatives):
                let outcomes = alternatives.map { alternative in alternative.map { evaluate($0, observation) } }
                let held = outcomes.contains { $0.allSatisfy(\.held) }
                let expected = "one of: " + outcomes.enumerated().map { index, alternative in
                    "(\(index + 1)) " + alternative.map(\.expected).joined(separator: ", ")
                }.joined(separator: "; ")
                let observed: String
                if held {
                    observed = summary(observation)
                } else {
                    // Name, for each alternative, the first thing that did not hold.
                    observed = outcomes.enumerated().map { index, alternative in
                        let miss = alternative.first { !$0.held }.map { "\($0.observed)" } ?? ""
                        return "(\(index + 1)) \(miss)"
                    }.joined(separator: "; ")
                }
                results.append(CheckResult(requirement: group.requirement, expected: expected, observed: observed,
                                           verdict: held ? .pass : group.requirement.level.violationVerdict))
            }
        }
        return results
    }

    struct Outcome {
        var held: Bool
        var expected: String
        var observed: String
    }

    /// A one-line, redacted description of an answer.
    public func summary(_ answer: HandlerAnswer) -> String {
        switch answer.action {
        case .decline: "declined (opened nothing)"
        case .open: "opened \(Redaction.redact(url: answer.url ?? ""))"
        }
    }

    /// A one-line, redacted description of what a step observed.
    public func summary(_ observation: Observation) -> String {
        switch observation {
        case .link(let answer):
            return summary(answer)
        case .http(let response):
            var text = "HTTP \(response.status)"
            if let location = response.header("Location") { text += ", Location: \(Redaction.redact(url: location))" }
            if let type = response.header("Content-Type") { text += ", \(type)" }
            return text + ", \(response.body.count) body bytes"
        }
    }

    func evaluate(_ assertion: Assertion, _ observation: Observation) -> Outcome {
        switch assertion {
        case .distinct, .entropyBits:
            return SampleJudging.evaluate(assertion, samples: context.samples, expected: describe(assertion))
        case .status, .header, .json, .noNavigation, .bodyExcludes, .framingDenied, .siteAssociationCovers, .bodyAtMost:
            guard case .http(let response) = observation else {
                return Outcome(held: false, expected: describe(assertion), observed: "not an HTTP step")
            }
            return HTTPJudging.evaluate(assertion, response, judge: self)
        default:
            if case .http(let response) = observation, case .action(let action) = assertion {
                let redirected = response.asAnswer.action == .open
                let held = (action == .open) == redirected
                return Outcome(held: held, expected: action == .open ? "redirects (3xx with Location)" : "does not redirect",
                               observed: summary(observation))
            }
            return evaluate(assertion, observation.answer)
        }
    }

    private var sentParameters: [QueryParameter] { context.sent }

    func evaluate(_ assertion: Assertion, _ answer: HandlerAnswer) -> Outcome {
        if case .action(let expected) = assertion {
            let text = expected == .open ? "opens a URL" : "declines (opens nothing)"
            return Outcome(held: answer.action == expected, expected: text, observed: summary(answer))
        }
        if case .universalLinksOnly = assertion {
            let observed = answer.universalLinksOnly.map { "universal_links_only: \($0)" } ?? "universal_links_only not given"
            guard answer.action == .open else {
                return Outcome(held: false, expected: "opened universal-links-only", observed: summary(answer))
            }
            return Outcome(held: answer.universalLinksOnly == true, expected: "opened universal-links-only", observed: observed)
        }
        let expectedText = describe(assertion)
        guard answer.action == .open, let url = answer.url else {
            return Outcome(held: false, expected: expectedText, observed: "nothing was opened (the handler declined)")
        }
        let parts = URLParts(url)
        let parameters = parts.parameters
        switch assertion {
        case .action, .universalLinksOnly, .status, .header, .json, .noNavigation, .bodyExcludes, .framingDenied,
             .siteAssociationCovers, .bodyAtMost, .distinct, .entropyBits:
            return Outcome(held: true, expected: expectedText, observed: "")
        case .urlBase(let template):
            let expected = template.resolve(in: context)
            let held = parts.base == expected
            return Outcome(held: held, expected: "the opened URL's base is exactly \(ByteText.display(expected))",
                           observed: held ? "base \(ByteText.display(String(parts.base)))" : "base is \(ByteText.display(String(parts.base)))")
        case .code(let presence):
            let codes = parameters.all(named: "code")
            switch presence {
            case .absent:
                return Outcome(held: codes.isEmpty, expected: expectedText,
                               observed: codes.isEmpty ? "no code" : "\(codes.count) code parameter(s)")
            case .present:
                guard codes.count == 1 else {
                    return Outcome(held: false, expected: expectedText, observed: codes.isEmpty ? "no code parameter" : "\(codes.count) code parameters")
                }
                guard let value = codes[0].value else {
                    return Outcome(held: false, expected: expectedText, observed: "the code has an invalid percent-escape")
                }
                guard !value.isEmpty else { return Outcome(held: false, expected: expectedText, observed: "the code is empty") }
                guard value.allSatisfy({ (0x20...0x7E).contains($0) }) else {
                    return Outcome(held: false, expected: expectedText,
                                   observed: "the code has characters outside visible ASCII (RFC 6749 App. A.11): \(Redaction.placeholder(for: value))")
                }
                return Outcome(held: true, expected: expectedText, observed: "one code, \(Redaction.placeholder(for: value))")
            }
        case .state(let expectation):
            return evaluateState(expectation, parameters: parameters, expected: expectedText)
        case .error(let allowed):
            let errors = parameters.all(named: "error")
            guard let allowed else {
                return Outcome(held: errors.isEmpty, expected: expectedText,
                               observed: errors.isEmpty ? "no error" : "error \(errors.map { ByteText.display($0.value ?? []) }.joined(separator: ", "))")
            }
            guard errors.count == 1 else {
                return Outcome(held: false, expected: expectedText, observed: errors.isEmpty ? "no error parameter" : "\(errors.count) error parameters")
            }
            let value = errors[0].value ?? []
            let text = String(validating: value, as: UTF8.self) ?? ""
            return Outcome(held: allowed.contains(text), expected: expectedText, observed: "error=\(ByteText.display(value))")
        case .errorDescriptionCharset:
            let descriptions = parameters.all(named: "error_description")
            guard let description = descriptions.first else {
                return Outcome(held: true, expected: expectedText, observed: "no error_description")
            }
            guard let value = description.value else {
                return Outcome(held: false, expected: expectedText, observed: "error_description has an invalid percent-escape")
            }
            let allowedBytes: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
            let held = value.allSatisfy(allowedBytes)
            return Outcome(held: held, expected: expectedText, observed: "error_description=\(ByteText.display(value))")
        case .strictParameters:
            return evaluateStrict(parts: parts, parameters: parameters, expected: expectedText)
        case .noFragment:
            return Outcome(held: parts.fragment == nil, expected: expectedText,
                           observed: parts.fragment.map { "fragment #\(ByteText.display(Redaction.redact(query: $0)))" } ?? "no fragment")
        }
    }

    private func evaluateState(_ expectation: Assertion.StateExpectation, parameters: [QueryParameter], expected: String) -> Outcome {
        let states = parameters.all(named: "state")
        let sentStates = sentParameters.all(named: "state")
        let sent: [UInt8]? = sentStates.count == 1 ? sentStates[0].value : nil
        if states.isEmpty {
            let held = expectation == .absent || expectation == .echoedIfPresent
            return Outcome(held: held, expected: expected, observed: "no state parameter")
        }
        if expectation == .absent {
            return Outcome(held: false, expected: expected, observed: "state=\(ByteText.display(states[0].value ?? []))")
        }
        guard states.count == 1 else {
            return Outcome(held: false, expected: expected, observed: "\(states.count) state parameters")
        }
        guard let value = states[0].value else {
            return Outcome(held: false, expected: expected, observed: "the returned state has an invalid percent-escape: \(ByteText.display(String(states[0].rawValue ?? "")))")
        }
        guard let sent else {
            return Outcome(held: false, expected: expected, observed: "a state was returned, but the link did not carry exactly one decodable state")
        }
        if value == sent {
            return Outcome(held: true, expected: expected, observed: "state echoed (\(value.count) bytes)")
        }
        let firstDifference = zip(value, sent).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(value.count, sent.count)
        return Outcome(held: false, expected: expected,
                       observed: "state is \(ByteText.display(value)) (\(value.count) bytes); sent \(ByteText.display(sent)) (\(sent.count) bytes); first difference at byte \(firstDifference)")
    }

    private func evaluateStrict(parts: URLParts, parameters: [QueryParameter], expected: String) -> Outcome {
        var problems: [String] = []
        if !parts.queryIsURISafe { problems.append("the query has characters that must be percent-encoded") }
        let names = parameters.map { $0.nameText ?? "(undecodable)" }
        if parameters.contains(where: { $0.value == nil || $0.name == nil }) {
            problems.append("a parameter has an invalid percent-escape")
        }
        let hasCode = names.contains("code")
        let hasError = names.contains("error")
        let allowed: Set<String>
        switch (hasCode, hasError) {
        case (true, true):
            problems.append("both code and error")
            allowed = ["code", "error", "error_description", "state", "iss"]
        case (true, false):
            allowed = ["code", "state", "iss"]
        case (false, true):
            allowed = ["error", "error_description", "state", "iss"]
        case (false, false):
            problems.append("neither code nor error")
            allowed = []
        }
        var counts: [String: Int] = [:]
        for name in names { counts[name, default: 0] += 1 }
        let unexpected = counts.keys.filter { !allowed.contains($0) }.sorted()
        if !unexpected.isEmpty, hasCode || hasError { problems.append("unexpected parameter(s): \(unexpected.joined(separator: ", "))") }
        let repeated = counts.filter { $0.value > 1 }.keys.sorted()
        if !repeated.isEmpty { problems.append("repeated parameter(s): \(repeated.joined(separator: ", "))") }
        let observed = problems.isEmpty ? "parameters: \(names.joined(separator: ", "))" : problems.joined(separator: "; ")
            + " (parameters: \(names.joined(separator: ", ")))"
        return Outcome(held: problems.isEmpty, expected: expected, observed: observed)
    }

    /// The expected side of an assertion, in a reviewer's words.
    public func describe(_ assertion: Assertion) -> String {
        switch assertion {
        case .action(let action): action == .open ? "opens a URL" : "declines (opens nothing)"
        case .urlBase(let template): "the opened URL's base is exactly \(ByteText.display(template.resolve(in: context)))"
        case .code(.present): "exactly one non-empty code of visible ASCII characters"
        case .code(.absent): "no code"
        case .state(.echoed): "state echoed byte for byte after one decoding"
        case .state(.absent): "no state"
        case .state(.echoedIfPresent): "state absent or echoed byte for byte"
        case .error(nil): "no error"
        case .error(let values?): values.count == 1 ? "error=\(values.sorted()[0])" : "error one of \(values.sorted().joined(separator: ", "))"
        case .errorDescriptionCharset: "error_description, if present, only in %x20-21 / %x23-5B / %x5D-7E"
        case .strictParameters: "only code+state or error(+error_description)+state (iss allowed), none repeated, all encoded"
        case .noFragment: "no fragment"
        case .universalLinksOnly: "opened universal-links-only"
        case .status(let expectation): "HTTP status \(expectation.description)"
        case .header(let name, let expectation):
            switch expectation {
            case .present: "header \(name) present"
            case .absent: "no \(name) header"
            case .contains(let text): "header \(name) contains \"\(text)\""
            case .startsWith(let text): "header \(name) starts with \"\(text)\""
            }
        case .json(let member, let expectation):
            switch expectation {
            case .present: "JSON member \(member) present and not empty"
            case .absent: "no JSON member \(member)"
            case .equals(let text): "JSON \(member) = \"\(text)\""
            case .equalsIgnoringCase(let text): "JSON \(member) = \"\(text)\" (any case)"
            case .oneOf(let values): "JSON \(member) one of \(values.sorted().joined(separator: ", "))"
            case .positiveInteger: "JSON \(member) a whole number above 0"
            }
        case .noNavigation: "no redirect of any kind: no Location, no meta refresh, no script navigation"
        case .bodyExcludes(let template): "the body does not contain \(ByteText.display(template.resolve(in: context), limit: 60)) unescaped"
        case .framingDenied: "framing denied: X-Frame-Options DENY/SAMEORIGIN or CSP frame-ancestors 'none'/'self'"
        case .siteAssociationCovers: "applinks lets \(context.configuration.appID.isEmpty ? "the app" : context.configuration.appID) open the link's path"
        case .bodyAtMost(let limit): "body at most \(limit) bytes"
        case .distinct(let name): "every captured \(name) differs from the others"
        case .entropyBits(let name, let bits): "the captured \(name) values carry at least \(bits) bits of entropy (estimated)"
        }
    }
}
