import AppFlipBase
import Foundation

/// Judges what one authorization request URL of a native app shows on its own (`validate-url`, and every request
/// the native-client profile captures): the required parameters and their encoding, PKCE's method and challenge
/// form, the verifier and any secret kept out of the URL, the state's size, and the redirect URI's form. Every
/// check names the NAT-* requirement it judges, at that requirement's level; what a URL alone cannot show
/// (freshness, the verifier's match, the listener) is left to the profile.
package struct AuthorizationRequestAudit: Sendable {
    /// The redirect URIs registered for the client; empty when unknown (the registration check is then skipped).
    package var registeredRedirectURIs: [String]

    package init(registeredRedirectURIs: [String] = []) {
        self.registeredRedirectURIs = registeredRedirectURIs
    }

    /// The checks of one URL, in a fixed order; each applies or says why not.
    package func audit(_ url: String) -> [CheckResult] {
        let parts = URLParts(url)
        let parameters = parts.parameters
        var results: [CheckResult] = []
        results.append(encoding(parts, parameters))
        results.append(required(parameters))
        results.append(noSecret(parameters))
        results += pkce(parameters)
        results.append(state(parameters))
        results += redirect(parameters)
        return results
    }

    // MARK: Parameters

    private static func reference(_ id: String, _ level: Level) -> RequirementReference { RequirementReference(id: id, level: level) }

    private static func check(_ id: String, _ level: Level, expected: String, violation: String?, held: String) -> CheckResult {
        CheckResult(
            requirement: reference(id, level), expected: expected, observed: violation ?? held,
            verdict: violation == nil ? .pass : level.violationVerdict)
    }

    /// The decoded values of `name`, as text (nil for a value that is not UTF-8 or not decodable).
    private func values(_ name: String, in parameters: [QueryParameter]) -> [String?] {
        parameters.all(named: name).map { $0.value.flatMap { String(validating: $0, as: UTF8.self) } }
    }

    private func encoding(_ parts: URLParts, _ parameters: [QueryParameter]) -> CheckResult {
        let expected = "every parameter once, every value validly percent-encoded, only characters a URI query allows"
        guard parts.query != nil else {
            return .notApplicable(Self.reference("NAT-REQ-002", .must), expected: expected, reason: "the URL has no query")
        }
        var problems: [String] = []
        let invalid = parameters.filter { $0.name == nil || $0.value == nil }.map { String($0.rawName) }
        if !invalid.isEmpty {
            problems.append("an invalid percent-escape in " + invalid.map { ByteText.display(Array($0.utf8), limit: 40) }.joined(separator: ", "))
        }
        var counts: [[UInt8]: Int] = [:]
        for parameter in parameters { if let name = parameter.name { counts[name, default: 0] += 1 } }
        let repeated = counts.filter { $0.value > 1 }.keys.map { String(decoding: $0, as: UTF8.self) }.sorted()
        if !repeated.isEmpty { problems.append("repeated: " + repeated.joined(separator: ", ")) }
        if let query = parts.query, let bad = query.utf8.first(where: { !Self.queryAllows($0) }) {
            problems.append("the character \(ByteText.display([bad], limit: 4)) unencoded (RFC 3986 §3.4 does not allow it in a query)")
        }
        return Self.check(
            "NAT-REQ-002", .must, expected: expected, violation: problems.isEmpty ? nil : problems.joined(separator: "; "),
            held: "\(parameters.count) parameters, each once, validly encoded")
    }

    /// RFC 3986 §3.4: `pchar / "/" / "?"`, with `%` for escapes (checked separately).
    private static func queryAllows(_ byte: UInt8) -> Bool {
        FormEncoding.isUnreserved(byte) || "!$&'()*+,;=:@/?%".utf8.contains(byte)
    }

    private func required(_ parameters: [QueryParameter]) -> CheckResult {
        var problems: [String] = []
        let missing = ["client_id", "redirect_uri", "response_type", "scope"].filter { name in
            values(name, in: parameters).allSatisfy { ($0 ?? "").isEmpty }
        }
        if !missing.isEmpty { problems.append("missing: " + missing.joined(separator: ", ")) }
        if let responseType = values("response_type", in: parameters).first ?? nil, !responseType.isEmpty, responseType != "code" {
            problems.append(
                "response_type=\(ByteText.display(Array(responseType.utf8), limit: 40))"
                    + (responseType.split(separator: " ").contains("token") ? " (the implicit flow, which native apps must not use)" : ""))
        }
        return Self.check(
            "NAT-REQ-001", .must, expected: "client_id, redirect_uri, response_type=code and scope",
            violation: problems.isEmpty ? nil : problems.joined(separator: "; "), held: "all present, response_type=code")
    }

    private func noSecret(_ parameters: [QueryParameter]) -> CheckResult {
        let found = parameters.all(named: "client_secret")
        return Self.check(
            "NAT-REQ-001", .must, expected: "no client_secret in the URL (it would reach the browser and its history)",
            violation: found.isEmpty ? nil : "client_secret present (value withheld)", held: "no client_secret")
    }

    // MARK: PKCE

    private func pkce(_ parameters: [QueryParameter]) -> [CheckResult] {
        let challenges = values("code_challenge", in: parameters)
        let challenge = challenges.first ?? nil
        let methods = values("code_challenge_method", in: parameters)
        var results = [
            Self.check(
                "NAT-PKCE-006", .must, expected: "a code_challenge (PKCE on every request)",
                violation: (challenge ?? "").isEmpty ? "no code_challenge" : nil, held: "code_challenge present")
        ]
        let methodExpected = "code_challenge_method=S256, sent explicitly (without it the server takes plain)"
        let challengeExpected = "an S256 challenge: 43 characters of base64url, no padding"
        if let challenge, !challenge.isEmpty {
            let method = methods.first ?? nil
            let violation: String? =
                switch method {
                case "S256": nil
                case nil where methods.isEmpty: "no code_challenge_method: the server takes plain"
                case let other: "code_challenge_method=" + ByteText.display(Array((other ?? "").utf8), limit: 40)
                }
            results.append(Self.check("NAT-PKCE-004", .must, expected: methodExpected, violation: violation, held: "S256"))
            if method == "S256" {
                let form =
                    challenge.utf8.count == 43
                    && challenge.utf8.allSatisfy { FormEncoding.isUnreserved($0) && $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: "~") }
                results.append(
                    Self.check(
                        "NAT-PKCE-003", .must, expected: challengeExpected,
                        violation: form
                            ? nil
                            : "code_challenge " + ByteText.display(Array(challenge.utf8), limit: 60)
                                + " (\(challenge.utf8.count) characters)", held: "43 base64url characters"))
            } else {
                results.append(.notApplicable(Self.reference("NAT-PKCE-003", .must), expected: challengeExpected, reason: "the method is not S256"))
            }
        } else {
            results.append(.notApplicable(Self.reference("NAT-PKCE-004", .must), expected: methodExpected, reason: "no code_challenge"))
            results.append(.notApplicable(Self.reference("NAT-PKCE-003", .must), expected: challengeExpected, reason: "no code_challenge"))
        }
        results.append(
            Self.check(
                "NAT-PKCE-007", .must, expected: "no code_verifier in the URL (it goes only in the token request's body)",
                violation: parameters.all(named: "code_verifier").isEmpty ? nil : "code_verifier present (value withheld)",
                held: "no code_verifier"))
        return results
    }

    // MARK: State

    /// The most entropy a value can carry if every character were random over the smallest common alphabet its
    /// characters fit in: digits (10), hex (16), letters and digits (62), base64url (64), or printable ASCII (95).
    package static func entropyCapacity(of value: String) -> Double {
        let bytes = Array(value.utf8)
        let alphabet: Double
        if bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            alphabet = 10
        } else if bytes.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x66) }) {
            // One case only for hex: mixed case is not hex.
            let lower = bytes.allSatisfy { !($0 >= 0x41 && $0 <= 0x46) }
            let upper = bytes.allSatisfy { !($0 >= 0x61 && $0 <= 0x66) }
            alphabet = lower || upper ? 16 : 62
        } else if bytes.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A) }) {
            alphabet = 62
        } else if bytes.allSatisfy({ FormEncoding.isUnreserved($0) }) {
            alphabet = 66
        } else {
            alphabet = 256
        }
        return Double(bytes.count) * log2(alphabet)
    }

    private func state(_ parameters: [QueryParameter]) -> CheckResult {
        let expected = "a state of at least 128 bits (RFC 8252 §8.9: high-entropy and random)"
        guard let value = values("state", in: parameters).first ?? nil, !value.isEmpty else {
            return Self.check("NAT-STATE-001", .should, expected: expected, violation: "no state (PKCE alone then guards against CSRF)", held: "")
        }
        let capacity = Self.entropyCapacity(of: value)
        let shown = "\(value.utf8.count) character\(value.utf8.count == 1 ? "" : "s"), at most \(Int(capacity)) bits"
        return Self.check(
            "NAT-STATE-001", .should, expected: expected,
            violation: capacity < 128 ? "state of " + shown + " even if every character were random" : nil,
            held: shown + " (randomness and freshness are judged over several flows)")
    }

    // MARK: Redirect URI

    private func redirect(_ parameters: [QueryParameter]) -> [CheckResult] {
        let formExpected = "a private-use scheme, a claimed https URI or a loopback IP redirect (RFC 8252 §7)"
        guard let text = parameters.singleText(named: "redirect_uri"), !text.isEmpty else {
            return ["NAT-REDIR-001", "NAT-REDIR-002", "NAT-REDIR-003", "NAT-REDIR-004", "NAT-REDIR-005"].map {
                .notApplicable(
                    Self.reference($0, $0 == "NAT-REDIR-003" ? .should : .must), expected: formExpected,
                    reason: "no single, decodable redirect_uri")
            }
        }
        let uri = NativeRedirectURI(text)
        let shown = ByteText.display(Array(text.utf8), limit: 120)
        var results: [CheckResult] = []
        // RFC 6749 §3.1.2: absolute, no fragment.
        var absolute: String?
        if uri.form == .relative { absolute = "\(shown) is not an absolute URI" } else if uri.fragment != nil { absolute = "\(shown) has a fragment" }
        switch uri.form {
        case .privateUseScheme(let scheme, let rest):
            let labels = scheme.split(separator: ".", omittingEmptySubsequences: false)
            let reverseDNS = labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
            let outOfBand = scheme.lowercased() == "urn" && rest.lowercased().hasPrefix("ietf:wg:oauth:2.0:oob")
            results.append(
                Self.check(
                    "NAT-REDIR-001", .must, expected: "a scheme in reverse DNS form, with a period (com.example.app)",
                    violation: reverseDNS
                        ? nil
                        : "scheme \(ByteText.display(Array(scheme.utf8), limit: 60))"
                            + (outOfBand ? " (the out-of-band flow, which Google no longer supports)" : " has no period"),
                    held: "scheme \(scheme)"))
            // Google: the path is optional and starts with a single slash; RFC 8252 §7.1: one slash, never two.
            let slash: String? =
                rest.hasPrefix("//")
                ? "two slashes after the scheme: \(shown)"
                : (!rest.isEmpty && !rest.hasPrefix("/")) ? "no slash before the path: \(shown)" : nil
            results.append(
                Self.check(
                    "NAT-REDIR-002", .must, expected: "scheme:/path with a single slash (or no path)", violation: slash,
                    held: rest.isEmpty ? "no path" : "single slash"))
            results.append(
                CheckResult(
                    requirement: Self.reference("NAT-REDIR-003", .should), expected: "a claimed https redirect where the platform offers one",
                    observed: "a private-use scheme: RFC 8252 §7.2 prefers a claimed https URI where possible; "
                        + "Google's installed-app guidance documents this form, so it is noted, not warned", verdict: .info))
            results.append(.notApplicable(Self.reference("NAT-REDIR-004", .must), expected: "loopback IP literal", reason: "not a loopback redirect"))
        case .claimedHTTPS:
            results.append(.notApplicable(Self.reference("NAT-REDIR-001", .must), expected: "reverse DNS scheme", reason: "a claimed https redirect"))
            results.append(.notApplicable(Self.reference("NAT-REDIR-002", .must), expected: "single slash", reason: "a claimed https redirect"))
            results.append(
                Self.check(
                    "NAT-REDIR-003", .should, expected: "a claimed https redirect", violation: nil,
                    held: "https (whether the app claims it is not visible in the URL)"))
            results.append(.notApplicable(Self.reference("NAT-REDIR-004", .must), expected: "loopback IP literal", reason: "not a loopback redirect"))
        case .http(let host, _, _):
            results.append(.notApplicable(Self.reference("NAT-REDIR-001", .must), expected: "reverse DNS scheme", reason: "a loopback redirect"))
            results.append(.notApplicable(Self.reference("NAT-REDIR-002", .must), expected: "single slash", reason: "a loopback redirect"))
            results.append(
                .notApplicable(Self.reference("NAT-REDIR-003", .should), expected: "claimed https", reason: "a loopback redirect (desktop apps)"))
            if host == "localhost" {
                // RFC 8252 §8.3: NOT RECOMMENDED, so a warning under our own row, not a failure (catalog decision).
                results.append(
                    Self.check(
                        "NAT-REDIR-004-S", .should, expected: "127.0.0.1 or [::1], not localhost (RFC 8252 §8.3)",
                        violation: "localhost: it may resolve to another interface or be overridden", held: ""))
            } else {
                results.append(
                    Self.check(
                        "NAT-REDIR-004", .must, expected: "http only to 127.0.0.1 or [::1] (RFC 8252 §7.3)",
                        violation: NativeRedirectURI.loopbackLiterals.contains(host) ? nil : Self.notLoopbackLiteral(host), held: host))
            }
        case .relative:
            for (id, level) in [("NAT-REDIR-001", Level.must), ("NAT-REDIR-002", .must), ("NAT-REDIR-003", .should), ("NAT-REDIR-004", .must)] {
                results.append(.notApplicable(Self.reference(id, level), expected: formExpected, reason: "not an absolute URI (NAT-REDIR-005)"))
            }
        }
        results.append(registered(uri, shown: shown, absolute: absolute))
        return results
    }

    private func registered(_ uri: NativeRedirectURI, shown: String, absolute: String?) -> CheckResult {
        let expected =
            registeredRedirectURIs.isEmpty
            ? "an absolute URI without a fragment (RFC 6749 §3.1.2)"
            : "exactly one of the registered redirect URIs (a loopback one on any port)"
        if let absolute { return Self.check("NAT-REDIR-005", .must, expected: expected, violation: absolute, held: "") }
        guard !registeredRedirectURIs.isEmpty else {
            return Self.check(
                "NAT-REDIR-005", .must, expected: expected, violation: nil, held: "absolute, no fragment (no registered URIs given to compare)")
        }
        let matches = registeredRedirectURIs.contains { registered in
            registered == uri.text || (uri.withoutLoopbackPort != nil && NativeRedirectURI(registered).withoutLoopbackPort == uri.withoutLoopbackPort)
        }
        return Self.check("NAT-REDIR-005", .must, expected: expected, violation: matches ? nil : "\(shown) is not registered", held: "registered")
    }

    /// Why an http redirect's host is not one Google accepts: another address of 127.0.0.0/8 is loopback, but not
    /// the literal Google's installed-app flow and RFC 8252 §7.3 name; anything else is not loopback at all.
    static func notLoopbackLiteral(_ host: String) -> String {
        if host.isEmpty { return "http to no host" }
        if NativeRedirectURI.isLoopbackHost(host), host != "localhost" {
            return "http to \(host): a loopback address, but not 127.0.0.1 or [::1], the literals Google accepts (RFC 8252 §7.3)"
        }
        return "http to \(host), which is not the loopback interface"
    }
}
