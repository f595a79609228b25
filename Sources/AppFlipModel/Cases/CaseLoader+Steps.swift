import AppFlipSyntax

extension CaseLoader {
    /// `steps:` — each a link or an HTTP request, with captures and checks.
    mutating func parseSteps(_ node: Node, profile: Profile?) -> [Step]? {
        guard let list = reader.sequence(node, "'steps'") else { return nil }
        if list.items.isEmpty {
            reader.error(at: list.location, "'steps' is empty")
            return nil
        }
        var steps: [Step] = []
        for item in list.items {
            guard let mapping = reader.mapping(item, "a step"),
                  reader.checkKeys(mapping, allowed: ["link", "request", "capture", "checks", "requirement", "expect", "repeat"], in: "a step")
            else { continue }
            let action: Step.Action?
            switch (mapping["link"], mapping["request"]) {
            case (let link?, nil):
                action = linkRecipe(link, defaultBase: .appLink).map { .link($0) }
            case (nil, let request?):
                action = httpRequest(request).map { .http($0) }
            default:
                reader.error(at: mapping.location, "a step has exactly one of 'link' or 'request'")
                action = nil
            }
            let captures = mapping["capture"].flatMap { parseCaptures($0) } ?? []
            var repeatCount = 1
            if let repeatNode = mapping["repeat"], let scalar = reader.scalar(repeatNode, "'repeat'") {
                if let count = Int(scalar.text), (1...200).contains(count) { repeatCount = count } else {
                    reader.error(at: scalar.location, "'repeat' takes a count from 1 to 200")
                }
            }
            guard let checks = checkGroups(mapping, profile: profile), let action else { continue }
            steps.append(Step(action: action, captures: captures, checks: checks, location: mapping.location, repeatCount: repeatCount))
        }
        return steps.count == list.items.count ? steps : nil
    }

    private mutating func httpRequest(_ node: Node) -> HTTPStepRequest? {
        guard let mapping = reader.mapping(node, "'request'"),
              reader.checkKeys(mapping, allowed: ["endpoint", "method", "query", "form", "auth", "auth_client_id", "auth_secret",
                                                  "headers", "user"], required: ["endpoint"], in: "'request'"),
              let endpointNode = mapping["endpoint"],
              let endpoint = reader.enumValue(endpointNode, "endpoint", as: Endpoint.self) else { return nil }
        let defaultMethod: String
        let defaultBase: ParameterBase
        switch endpoint {
        case .authorize: (defaultMethod, defaultBase) = ("GET", .authorize)
        case .token: (defaultMethod, defaultBase) = ("POST", .code)
        case .revoke: (defaultMethod, defaultBase) = ("POST", .revoke)
        case .siteAssociation, .linkHandler: (defaultMethod, defaultBase) = ("GET", .none)
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
        var request = HTTPStepRequest(endpoint: endpoint, method: method, query: query, form: form,
                                      authentication: endpoint == .token || endpoint == .revoke ? .configured : .none)
        if query == nil, form == nil {
            if method == "GET" || method == "HEAD" { request.query = .base(defaultBase) } else { request.form = .base(defaultBase) }
        }
        if let authNode = mapping["auth"],
           let authentication = reader.enumValue(authNode, "auth", as: HTTPStepRequest.ClientAuthentication.self) {
            request.authentication = authentication
        }
        request.authenticationClientID = mapping["auth_client_id"].flatMap { reader.scalar($0, "'auth_client_id'") }.flatMap { reader.template($0) }
        request.authenticationSecret = mapping["auth_secret"].flatMap { reader.scalar($0, "'auth_secret'") }.flatMap { reader.template($0) }
        if let headersNode = mapping["headers"], let headers = reader.mapping(headersNode, "'headers'") {
            for entry in headers.entries {
                guard let scalar = reader.scalar(entry.value, "header '\(entry.key.text)'"), let template = reader.template(scalar) else { continue }
                if scalar.text.contains(where: { $0 == "\r" || $0 == "\n" }) || entry.key.text.contains(where: { $0 == ":" || $0 == " " }) {
                    reader.error(at: entry.key.location, "a header name or value cannot contain ':', spaces in the name, or line breaks")
                }
                request.headers.append(HTTPStepRequest.Header(name: entry.key.text, value: template))
            }
        }
        if let userNode = mapping["user"], let scalar = reader.scalar(userNode, "'user'") {
            if scalar.text == "none" {
                request.user = .none
            } else if let scenario = reader.enumValue(userNode, "user (a scenario, or none)", as: Scenario.self) {
                request.user = .scenario(scenario)
            }
        } else if endpoint == .authorize {
            request.user = .caseScenario
        }
        return request
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
            } else {
                reader.error(at: scalar.location, "a capture reads 'location.PARAM', 'url.PARAM', 'json.MEMBER' or 'header.NAME'")
                continue
            }
            captures.append(Capture(name: entry.key.text, source: source))
        }
        return captures
    }

    /// The HTTP response assertions of one `expect` key.
    mutating func httpAssertions(_ key: String, _ node: Node) -> [Assertion]? {
        switch key {
        case "status":
            guard let values = reader.scalarList(node, "'status'") else { return nil }
            var expectation = Assertion.StatusExpectation()
            for value in values {
                let text = value.text.lowercased()
                if text.count == 3, text.hasSuffix("xx"), let digit = Int(text.prefix(1)), (1...5).contains(digit) {
                    expectation.classes.insert(digit)
                } else if let code = Int(text), (100...599).contains(code) {
                    expectation.codes.insert(code)
                } else {
                    reader.error(at: value.location, "a status is a code such as 302 or a class such as 4xx")
                    return nil
                }
            }
            return [.status(expectation)]
        case "headers":
            guard let mapping = reader.mapping(node, "'headers'") else { return nil }
            var result: [Assertion] = []
            for entry in mapping.entries {
                guard let scalar = reader.scalar(entry.value, "header expectation") else { return nil }
                let text = scalar.text
                let expectation: Assertion.HeaderExpectation
                if text == "present" { expectation = .present }
                else if text == "absent" { expectation = .absent }
                else if text.hasPrefix("contains "), text.count > 9 { expectation = .contains(String(text.dropFirst(9))) }
                else if text.hasPrefix("starts "), text.count > 7 { expectation = .startsWith(String(text.dropFirst(7))) }
                else {
                    reader.error(at: scalar.location, "a header expectation is 'present', 'absent', 'contains TEXT' or 'starts TEXT'")
                    return nil
                }
                result.append(.header(entry.key.text, expectation))
            }
            return result
        case "json":
            guard let mapping = reader.mapping(node, "'json'") else { return nil }
            var result: [Assertion] = []
            for entry in mapping.entries {
                let isListText: Bool
                if case .scalar(let scalar) = entry.value { isListText = scalar.style == .plain && scalar.text.hasPrefix("[") } else { isListText = false }
                if case .sequence = entry.value {
                    guard let values = reader.scalarList(entry.value, "JSON values") else { return nil }
                    result.append(.json(entry.key.text, .oneOf(Set(values.map(\.text)))))
                    continue
                }
                if isListText {
                    guard let values = reader.scalarList(entry.value, "JSON values") else { return nil }
                    result.append(.json(entry.key.text, .oneOf(Set(values.map(\.text)))))
                    continue
                }
                guard let scalar = reader.scalar(entry.value, "JSON expectation") else { return nil }
                let text = scalar.text
                let expectation: Assertion.JSONExpectation
                switch text {
                case "present": expectation = .present
                case "absent": expectation = .absent
                case "positive-integer": expectation = .positiveInteger
                default:
                    if text.hasPrefix("is-any-case "), text.count > 12 { expectation = .equalsIgnoringCase(String(text.dropFirst(12))) }
                    else if text.hasPrefix("is "), text.count > 3 { expectation = .equals(String(text.dropFirst(3))) }
                    else {
                        reader.error(at: scalar.location, "a JSON expectation is 'present', 'absent', 'positive-integer', 'is VALUE', 'is-any-case VALUE' or a list of values")
                        return nil
                    }
                }
                result.append(.json(entry.key.text, expectation))
            }
            return result
        case "navigation":
            guard let scalar = reader.scalar(node, "'navigation'") else { return nil }
            guard scalar.text == "none" else { reader.error(at: scalar.location, "'navigation' takes 'none'"); return nil }
            return [.noNavigation]
        case "body_excludes":
            guard let scalar = reader.scalar(node, "'body_excludes'"), let template = reader.template(scalar) else { return nil }
            return [.bodyExcludes(template)]
        case "framing":
            guard let scalar = reader.scalar(node, "'framing'") else { return nil }
            guard scalar.text == "denied" else { reader.error(at: scalar.location, "'framing' takes 'denied'"); return nil }
            return [.framingDenied]
        case "site_association":
            guard let scalar = reader.scalar(node, "'site_association'") else { return nil }
            guard scalar.text == "covers" else { reader.error(at: scalar.location, "'site_association' takes 'covers'"); return nil }
            return [.siteAssociationCovers]
        case "distinct":
            guard let scalar = reader.scalar(node, "'distinct'"), !scalar.text.isEmpty else { return nil }
            return [.distinct(scalar.text)]
        case "entropy_bits":
            guard let mapping = reader.mapping(node, "'entropy_bits'") else { return nil }
            var result: [Assertion] = []
            for entry in mapping.entries {
                guard let scalar = reader.scalar(entry.value, "a number of bits"), let bits = Int(scalar.text), bits > 0 else {
                    reader.error(at: entry.value.location, "'entropy_bits' maps a captured name to a number of bits")
                    return nil
                }
                result.append(.entropyBits(entry.key.text, bits))
            }
            return result
        case "body_at_most":
            guard let scalar = reader.scalar(node, "'body_at_most'") else { return nil }
            guard let limit = Int(scalar.text), limit >= 0 else { reader.error(at: scalar.location, "'body_at_most' takes a number of bytes"); return nil }
            return [.bodyAtMost(limit)]
        default:
            return nil
        }
    }
}
