import AppFlipChecks
import AppFlipModel
import AppFlipSyntax

extension CaseLoader {
    /// `steps:` — each a link or an HTTP request, with captures and checks.
    mutating func parseSteps(_ node: Node, profile: Profile?, caseRepeat: Int = 1) -> [Step]? {
        guard let list = reader.sequence(node, "'steps'") else { return nil }
        if list.items.isEmpty {
            reader.error(at: list.location, "'steps' is empty")
            return nil
        }
        var steps: [Step] = []
        var captured: Set<String> = []
        for item in list.items {
            guard let mapping = reader.mapping(item, "a step"),
                reader.checkKeys(
                    mapping,
                    allowed: ["link", "request", "intent", "capture", "checks", "requirement", "expect", "repeat", "when_captured", "wait"]
                        + NativeStep.Command.allCases.map(\.rawValue), in: "a step")
            else { continue }
            let action: Step.Action?
            let native = NativeStep.Command.allCases.compactMap { command in mapping[command.rawValue].map { (command, $0) } }
            switch (mapping["link"], mapping["request"], native.first, mapping["intent"]) {
            case (let link?, nil, nil, nil):
                action = linkRecipe(link, defaultBase: .appLink).map { .link($0) }
            case (nil, let request?, nil, nil):
                action = httpRequest(request).map { .http($0) }
            case (nil, nil, let (command, node)?, nil) where native.count == 1:
                action = nativeStep(command, node).map { .native($0) }
            case (nil, nil, nil, let intent?):
                action = intentRecipe(intent).map { .intent($0) }
            default:
                let kinds = (["link", "request", "intent"] + NativeStep.Command.allCases.map(\.rawValue)).map { "'\($0)'" }.joined(separator: ", ")
                reader.error(at: mapping.location, "a step has exactly one of \(kinds)")
                action = nil
            }
            if let action, let profile {
                for refusal in profile.refusals(of: action) { reader.error(at: mapping.location, refusal) }
            }
            let captures = mapping["capture"].flatMap { parseCaptures($0) } ?? []
            var repeatCount = 1
            if let repeatNode = mapping["repeat"], let scalar = reader.scalar(repeatNode, "'repeat'") {
                if let count = Int(scalar.text), (1...200).contains(count) {
                    repeatCount = count
                } else {
                    reader.error(at: scalar.location, "'repeat' takes a count from 1 to 200")
                }
            }
            guard var checks = checkGroups(mapping, profile: profile), let action else { continue }
            checks += CheckRegistry.impliedGroups(for: action, besides: checks, level: { catalog?[$0]?.level }, at: mapping.location)
            var whenCaptured: [String] = []
            if let node = mapping["when_captured"], let names = reader.scalarList(node, "'when_captured'") {
                for name in names where !captured.contains(name.text) {
                    reader.error(at: name.location, "'when_captured' names '\(name.text)', which no earlier step captures")
                }
                whenCaptured = names.map(\.text)
            }
            var step = Step(
                action: action, captures: captures, checks: checks, location: mapping.location, repeatCount: repeatCount,
                whenCaptured: whenCaptured)
            if let node = mapping["wait"], let scalar = reader.scalar(node, "'wait'") {
                if scalar.text == "code_lifetime" {
                    step.wait = .codeLifetime
                } else if scalar.text == "token_lifetime" {
                    step.wait = .tokenLifetime
                } else if let seconds = Double(scalar.text), seconds > 0, seconds <= 3600 {
                    step.wait = .seconds(seconds)
                } else {
                    reader.error(
                        at: scalar.location,
                        "'wait' takes 'code_lifetime' or 'token_lifetime' (the configured lifetime plus a second) or seconds, up to 3600")
                }
            }
            validate(step, capturedBefore: captured, caseRepeat: caseRepeat)
            captured.formUnion(captures.map(\.name))
            steps.append(step)
        }
        return steps.count == list.items.count ? steps : nil
    }

    private mutating func httpRequest(_ node: Node) -> HTTPStepRequest? {
        guard let mapping = reader.mapping(node, "'request'"),
            reader.checkKeys(
                mapping,
                allowed: [
                    "endpoint", "method", "query", "form", "auth", "auth_client_id", "auth_secret",
                    "headers", "user", "scheme", "tls", "sign_in", "burst",
                ], required: ["endpoint"], in: "'request'"),
            let endpointNode = mapping["endpoint"],
            let endpoint = reader.enumValue(endpointNode, "endpoint", as: Endpoint.self)
        else { return nil }
        let defaultMethod: String
        let defaultBase: ParameterBase
        switch endpoint {
        case .authorize: (defaultMethod, defaultBase) = ("GET", .authorize)
        case .token: (defaultMethod, defaultBase) = ("POST", .code)
        case .revoke: (defaultMethod, defaultBase) = ("POST", .revoke)
        case .siteAssociation, .linkSiteAssociation, .linkHandler, .api, .metadata: (defaultMethod, defaultBase) = ("GET", .none)
        }
        var method = defaultMethod
        if let methodNode = mapping["method"], let scalar = reader.scalar(methodNode, "'method'") {
            if !scalar.text.isEmpty, scalar.text.allSatisfy({ $0.isASCII && ($0.isUppercase || $0 == "-") }) {
                method = scalar.text
            } else {
                reader.error(at: scalar.location, "'method' is an upper-case HTTP method such as GET or POST")
            }
        }
        let query = mapping["query"].flatMap { linkRecipe($0, defaultBase: defaultBase, what: "'query'") }
        let form = mapping["form"].flatMap { linkRecipe($0, defaultBase: defaultBase, what: "'form'") }
        var request = HTTPStepRequest(
            endpoint: endpoint, method: method, query: query, form: form,
            authentication: endpoint == .token || endpoint == .revoke ? .configured : .none)
        if query == nil, form == nil {
            if method == "GET" || method == "HEAD" { request.query = .base(defaultBase) } else { request.form = .base(defaultBase) }
        }
        if let authNode = mapping["auth"],
            let authentication = reader.enumValue(authNode, "auth", as: HTTPStepRequest.ClientAuthentication.self)
        {
            request.authentication = authentication
        }
        request.authenticationClientID = mapping["auth_client_id"].flatMap { reader.scalar($0, "'auth_client_id'") }.flatMap { reader.template($0) }
        request.authenticationSecret = mapping["auth_secret"].flatMap { reader.scalar($0, "'auth_secret'") }.flatMap { reader.template($0) }
        if let headersNode = mapping["headers"] { request.headers = headers(headersNode) }
        if let userNode = mapping["user"], let scalar = reader.scalar(userNode, "'user'") {
            if scalar.text == "none" {
                request.user = .none
            } else if let scenario = reader.enumValue(userNode, "user (a scenario, or none)", as: Scenario.self) {
                request.user = .scenario(scenario)
            }
        } else if endpoint == .authorize {
            request.user = .caseScenario
        }
        if let probeNode = mapping["sign_in"], let probe = reader.enumValue(probeNode, "sign-in probe", as: HTTPStepRequest.SignInProbe.self) {
            if endpoint != .authorize { reader.error(at: probeNode.location, "'sign_in' probes the authorization endpoint's pages") }
            request.signInProbe = probe
        }
        if let schemeNode = mapping["scheme"], plainHTTPProbe(schemeNode, in: mapping) { request.transportProbe = .plainHTTP }
        if let burstNode = mapping["burst"], let scalar = reader.scalar(burstNode, "'burst'") {
            if let count = Int(scalar.text), (5...100).contains(count) {
                request.burst = count
            } else {
                reader.error(at: scalar.location, "'burst' is how many times to send the request at most, 5 to 100")
            }
        }
        if let tlsNode = mapping["tls"], let scalar = reader.scalar(tlsNode, "'tls'") {
            let probes: [String: HTTPStepRequest.TransportProbe] = ["legacy": .legacyTLS, "certificate": .certificate]
            if let probe = probes[scalar.text] {
                if request.transportProbe != nil {
                    reader.error(
                        at: tlsNode.location,
                        "a step probes one thing: '\(probe.option.dropFirst().dropLast())' and 'scheme: http' do not go together")
                }
                request.transportProbe = probe
            } else {
                reader.error(at: scalar.location, "'tls' takes 'legacy' or 'certificate'")
            }
        }
        return request
    }

    /// A request step's `headers`: each name and value a template, no line break, no ':' or space in a name.
    private mutating func headers(_ node: Node) -> [HTTPStepRequest.Header] {
        guard let headers = reader.mapping(node, "'headers'") else { return [] }
        var result: [HTTPStepRequest.Header] = []
        for entry in headers.entries {
            guard let scalar = reader.scalar(entry.value, "header '\(entry.key.text)'"), let template = reader.template(scalar) else { continue }
            if scalar.text.contains(where: { $0 == "\r" || $0 == "\n" }) || entry.key.text.contains(where: { $0 == ":" || $0 == " " }) {
                reader.error(at: entry.key.location, "a header name or value cannot contain ':', spaces in the name, or line breaks")
            }
            result.append(HTTPStepRequest.Header(name: entry.key.text, value: template))
        }
        return result
    }

    /// `scheme: http`, a plain-http probe of an https endpoint; it carries no secret (no client authentication, no
    /// session).
    private mutating func plainHTTPProbe(_ node: Node, in mapping: Node.Mapping) -> Bool {
        guard let scalar = reader.scalar(node, "'scheme'") else { return false }
        guard scalar.text == "http" else {
            reader.error(at: scalar.location, "'scheme' takes 'http' (a plain-http probe of an https endpoint)")
            return false
        }
        let auth = mapping["auth"].flatMap { reader.scalar($0, "'auth'") }?.text
        let user = mapping["user"].flatMap { reader.scalar($0, "'user'") }?.text
        if auth != "none" || user != "none" {
            reader.error(at: scalar.location, "a 'scheme: http' probe sends no secret: give it 'auth: none' and 'user: none'")
        }
        return true
    }

    private mutating func parseCaptures(_ node: Node) -> [Capture]? {
        guard let mapping = reader.mapping(node, "'capture'") else { return nil }
        var captures: [Capture] = []
        for entry in mapping.entries {
            guard let scalar = reader.scalar(entry.value, "capture '\(entry.key.text)'") else { continue }
            let text = scalar.text
            let source: Capture.Source
            if text.hasPrefix("location."), text.count > 9 {
                source = .urlParameter(String(text.dropFirst(9)))
            } else if text.hasPrefix("url."), text.count > 4 {
                source = .urlParameter(String(text.dropFirst(4)))
            } else if text.hasPrefix("json."), text.count > 5 {
                source = .jsonMember(String(text.dropFirst(5)))
            } else if text.hasPrefix("header."), text.count > 7 {
                source = .header(String(text.dropFirst(7)))
            } else if text == "body" {
                source = .body
            } else if text.hasPrefix("extra."), text.count > 6 {
                source = .extra(String(text.dropFirst(6)))
            } else {
                reader.error(
                    at: scalar.location, "a capture reads 'location.PARAM', 'url.PARAM', 'json.MEMBER', 'header.NAME', 'body' or 'extra.NAME'")
                continue
            }
            captures.append(Capture(name: entry.key.text, source: source))
        }
        return captures
    }
}
