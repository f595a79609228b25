import Foundation

/// The checks on an HTTP response (status, headers, JSON, navigation, framing, site association).
enum HTTPJudging {
    static func evaluate(_ assertion: Assertion, _ response: HTTPObservation, judge: Judge) -> Judge.Outcome {
        let expected = judge.describe(assertion)
        func outcome(_ held: Bool, _ observed: String) -> Judge.Outcome { Judge.Outcome(held: held, expected: expected, observed: observed) }
        switch assertion {
        case .status(let expectation):
            return outcome(expectation.matches(response.status), "HTTP \(response.status)")
        case .header(let name, let expectation):
            let values = response.headerValues(name)
            let shown = values.isEmpty ? "no \(name) header" : "\(name): " + values.map { Redaction.scrubText($0) }.joined(separator: ", ")
            switch expectation {
            case .present: return outcome(!values.isEmpty, shown)
            case .absent: return outcome(values.isEmpty, shown)
            case .contains(let text): return outcome(values.contains { $0.lowercased().contains(text.lowercased()) }, shown)
            case .startsWith(let text): return outcome(values.contains { $0.lowercased().hasPrefix(text.lowercased()) }, shown)
            }
        case .json(let member, let expectation):
            return json(member, expectation, response, outcome)
        case .noNavigation:
            var found: [String] = []
            if let location = response.header("Location") { found.append("Location: \(Redaction.redact(url: location))") }
            let lower = response.bodyText.lowercased()
            if lower.range(of: #"http-equiv\s*=\s*["']?refresh"#, options: .regularExpression) != nil { found.append("a meta refresh") }
            for script in scripts(in: lower) where script.range(
                of: #"(location\s*(\.href\s*)?=|location\.(replace|assign)\s*\(|window\.open\s*\(|\.submit\s*\()"#,
                options: .regularExpression) != nil {
                found.append("a script that navigates")
                break
            }
            return outcome(found.isEmpty, found.isEmpty ? "HTTP \(response.status), no navigation" : found.joined(separator: "; "))
        case .bodyExcludes(let template):
            let needle = Array(template.resolve(in: judge.context).utf8)
            let present = !needle.isEmpty && contains(response.body, needle)
            return outcome(!present, present ? "the body contains it verbatim" : "not present verbatim")
        case .framingDenied:
            let frameOptions = response.headerValues("X-Frame-Options").map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
            let policies = response.headerValues("Content-Security-Policy").flatMap { $0.split(separator: ";") }
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            let ancestors = policies.first { $0.hasPrefix("frame-ancestors") }
            let cspDenies = ancestors.map { directive in
                let sources = directive.split(separator: " ").dropFirst().map(String.init)
                return !sources.isEmpty && sources.allSatisfy { $0 == "'none'" || $0 == "'self'" }
            } ?? false
            let held = cspDenies || frameOptions.contains("DENY") || frameOptions.contains("SAMEORIGIN")
            let observed = "X-Frame-Options: \(frameOptions.isEmpty ? "(none)" : frameOptions.joined(separator: ", ")); "
                + "CSP frame-ancestors: \(ancestors ?? "(none)")"
            return outcome(held, observed)
        case .siteAssociationCovers:
            return SiteAssociation.covers(response.body, appID: judge.context.configuration.appID,
                                          link: judge.context.configuration.link, outcome: outcome)
        case .bodyAtMost(let limit):
            return outcome(response.body.count <= limit, "\(response.body.count) body bytes")
        default:
            return outcome(false, "not an HTTP check")
        }
    }

    private static func json(_ member: String, _ expectation: Assertion.JSONExpectation, _ response: HTTPObservation,
                             _ outcome: (Bool, String) -> Judge.Outcome) -> Judge.Outcome {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] else {
            if case .absent = expectation { return outcome(true, "no JSON object, so no member \(member)") }
            return outcome(false, "the body is not a JSON object (\(response.body.count) bytes, Content-Type \(response.header("Content-Type") ?? "none"))")
        }
        let value = object[member]
        let text: String?
        let isInteger: Bool
        switch value {
        case let string as String:
            text = string
            isInteger = false
        case let number as NSNumber:
            let isBool = String(cString: number.objCType) == "c"
            text = isBool ? (number.boolValue ? "true" : "false") : number.stringValue
            isInteger = !isBool && number.doubleValue == number.doubleValue.rounded()
        case nil:
            text = nil
            isInteger = false
        default:
            text = "(\(type(of: value as Any)))"
            isInteger = false
        }
        let sensitive = Redaction.sensitiveParameters.contains(member.lowercased())
        let shown = text.map { sensitive ? Redaction.placeholder(for: Array($0.utf8)) : ByteText.display($0, limit: 80) }
        let observed = shown.map { "\(member) = \($0)" } ?? "no member \(member)"
        switch expectation {
        case .present: return outcome(!(text ?? "").isEmpty, observed)
        case .absent: return outcome(value == nil, observed)
        case .equals(let expected): return outcome(text == expected, observed)
        case .equalsIgnoringCase(let expected): return outcome(text?.lowercased() == expected.lowercased(), observed)
        case .oneOf(let values): return outcome(text.map(values.contains) ?? false, observed)
        case .positiveInteger:
            let number = (value as? NSNumber)?.doubleValue ?? 0
            return outcome(isInteger && number >= 1, observed)
        }
    }

    /// The contents of each `<script>` element.
    private static func scripts(in lowercasedBody: String) -> [Substring] {
        var result: [Substring] = []
        var rest = Substring(lowercasedBody)
        while let open = rest.range(of: "<script") {
            guard let end = rest[open.upperBound...].range(of: "</script") else {
                result.append(rest[open.upperBound...])
                break
            }
            result.append(rest[open.upperBound..<end.lowerBound])
            rest = rest[end.upperBound...]
        }
        return result
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        let first = needle[0]
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
