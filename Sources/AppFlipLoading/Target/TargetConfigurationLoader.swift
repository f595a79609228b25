import AppFlipChecks
import AppFlipModel
import AppFlipRedaction
import AppFlipSyntax
import Foundation

/// Reads a target configuration file (`appflip-target.conf`), written in the case-file syntax:
///
/// ```
/// client_id: 1234-google.apps.example
/// client_secret_env: APPFLIP_CLIENT_SECRET      # the secret is read from this environment variable
/// project_id: my-smart-home-project
/// app_id: ABCDE12345.com.example.app
/// link: https://app.example/flip
/// scope: devices
/// token_auth: post                              # or basic
/// endpoints:
///   authorize: http://127.0.0.1:8080/oauth/authorize
///   token: http://127.0.0.1:8080/oauth/token
///   revoke: http://127.0.0.1:8080/oauth/revoke
///   site_association: http://127.0.0.1:8080/.well-known/apple-app-site-association
/// scenarios:
///   consent:
///     Cookie: session=${env:APPFLIP_APPROVING_USER_SESSION}
///   deny:
///     Cookie: session=${env:APPFLIP_REFUSING_USER_SESSION}
/// ```
///
/// Credentials never sit in the file: `client_secret` is refused, and header values take `${env:NAME}`.
package enum TargetConfigurationLoader {
    package static func load(path: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(DiagnosticList) -> TargetConfiguration
    {
        try load(bytes: BoundedFile.readSyntaxFile(path, what: "the target configuration"), file: path, environment: environment)
    }

    /// The configuration in `bytes`; a diagnostic quotes its line with every credential in it hidden (a URL's userinfo
    /// password, a `client_secret=` query value): a configuration error is printed and may land in a CI log.
    package static func load(bytes: [UInt8], file: String, environment: [String: String]) throws(DiagnosticList) -> TargetConfiguration {
        do {
            return try read(bytes: bytes, file: file, environment: environment)
        } catch {
            throw DiagnosticList(
                error.diagnostics.map { diagnostic in
                    var redacted = diagnostic
                    redacted.message = Redaction.scrubText(diagnostic.message)
                    redacted.lineText = Redaction.scrubText(diagnostic.lineText)
                    return redacted
                })
        }
    }

    private static func read(bytes: [UInt8], file: String, environment: [String: String]) throws(DiagnosticList) -> TargetConfiguration {
        let node = try Parser.parse(bytes: bytes, file: file)
        var reader = NodeReader(document: bytes)
        guard let document = reader.mapping(node, "the target configuration") else { throw DiagnosticList(reader.diagnostics) }
        var reading = Reading(document: document, reader: reader, environment: environment, file: file)
        reading.refuseWrittenSecret()
        // The link is the iOS link handler's, and the HTTP profiles derive from it (the link host's site association):
        // a file for an Android activity or a native app alone needs none.
        let needsLink = document["endpoints"] != nil
        reading.reader.checkKeys(
            document, allowed: Self.keys + ["client_secret"], required: needsLink ? ["client_id", "link"] : ["client_id"],
            in: "the target configuration")
        var configuration = try reading.core()
        configuration.text = String(decoding: bytes, as: UTF8.self)
        try reading.signIn(into: &configuration)
        try reading.options(into: &configuration)
        try reading.android(into: &configuration)
        return configuration
    }

    /// The keys a target configuration may have.
    static let keys = [
        "client_id", "client_secret_env", "project_id", "target_label", "target_version", "adapter_files", "app_id", "link", "scope", "token_auth",
        "endpoints", "scenarios",
        "second_client_id", "second_client_secret_env", "code_lifetime", "token_lifetime", "native_client_id", "narrowed_scope",
        "throttling_probe", "native_redirect_uris", "sign_in", "android_action", "android_package", "android_redirect_uri",
        "android_caller", "android_allowed_callers", "ca_file", "resolve", "handler_env",
    ]

    /// One reading of a configuration document: its diagnostics, and the secrets met so far (every value taken from
    /// the environment), each part read by a method named after it.
    struct Reading {
        let document: Node.Mapping
        var reader: NodeReader
        let environment: [String: String]
        /// The configuration file's path: what relative paths in it are relative to.
        let file: String
        var secrets: [String] = []

        init(document: Node.Mapping, reader: NodeReader, environment: [String: String], file: String) {
            self.document = document
            self.reader = reader
            self.environment = environment
            self.file = file
        }

        mutating func text(_ key: String) -> Node.Scalar? { document[key].flatMap { reader.scalar($0, "'\(key)'") } }

        mutating func expand(_ scalar: Node.Scalar) -> String {
            TargetConfigurationLoader.substituteEnvironment(scalar, environment: environment, secrets: &secrets, reader: &reader)
        }

        /// A client secret written in the file is refused, and its line is quoted without it.
        mutating func refuseWrittenSecret() {
            guard let secret = document.entries.first(where: { $0.key.text == "client_secret" }) else { return }
            reader.error(
                at: secret.key.location,
                "secrets never go in the file: put the client secret in an environment variable and name it with 'client_secret_env'")
            if let index = reader.diagnostics.indices.last, let colon = reader.diagnostics[index].lineText.firstIndex(of: ":") {
                reader.diagnostics[index].lineText = String(reader.diagnostics[index].lineText[...colon]) + " ‹redacted›"
            }
        }

        /// The client, the link, the endpoints, the scenarios' decorations and the second client: what every target has.
        mutating func core() throws(DiagnosticList) -> TargetConfiguration {
            let clientID = text("client_id").map { expand($0) } ?? ""
            let clientSecret = secret(named: text("client_secret_env"), what: "the client secret")
            let link = text("link").map { expand($0) } ?? ""
            if let linkNode = text("link"), !link.hasPrefix("https://") || link.contains("?") || link.contains("#") {
                reader.error(at: linkNode.location, "'link' must be the https universal link without a query or fragment")
            }
            let authentication = document["token_auth"].flatMap {
                reader.enumValue($0, "token_auth", as: TargetConfiguration.ClientAuthentication.self)
            }
            let endpoints = self.endpoints(link: link)
            let decorations = self.decorations()
            let secondClient = self.secondClient()
            if !reader.diagnostics.isEmpty { throw DiagnosticList(reader.diagnostics) }
            var configuration = TargetConfiguration(
                clientID: clientID, clientSecret: clientSecret, projectID: text("project_id").map { expand($0) },
                appID: text("app_id").map { expand($0) }, link: link,
                scope: text("scope").map { expand($0) } ?? "devices",
                endpoints: endpoints, tokenAuthentication: authentication ?? .post, decorations: decorations,
                secrets: secrets)
            configuration.targetLabel = text("target_label").map { expand($0) }
            configuration.targetVersion = text("target_version").map { expand($0) }
            if let node = document["adapter_files"], let paths = reader.scalarList(node, "'adapter_files'") {
                configuration.adapterFiles = paths.map(\.text)
            }
            configuration.secondClient = secondClient
            if let node = document["handler_env"], let names = reader.scalarList(node, "'handler_env'") {
                for name in names where !configuration.handlerEnvironment.contains(where: { $0.name == name.text }) {
                    // The name first: the suite's own variables are refused before their value is read.
                    if let problem = HandlerEnvironmentRule.nameProblem(name.text) {
                        reader.error(at: name.location, "'handler_env' " + problem.replacingOccurrences(of: "that variable", with: "'\(name.text)'"))
                        continue
                    }
                    guard let value = secret(named: name, what: "passed to every adapter") else { continue }
                    if let problem = HandlerEnvironmentRule.problem(name: name.text, value: value) {
                        reader.error(at: name.location, "'\(name.text)': " + problem)
                        continue
                    }
                    configuration.handlerEnvironment.append((name.text, value))
                    configuration.secrets.append(value)
                }
                if !reader.diagnostics.isEmpty { throw DiagnosticList(reader.diagnostics) }
            }
            return configuration
        }

        /// The value of the environment variable a `*_env` key names (a secret); an unset one is an error.
        mutating func secret(named name: Node.Scalar?, what: String) -> String? {
            guard let name else { return nil }
            guard let value = environment[name.text], !value.isEmpty else {
                reader.error(at: name.location, "the environment variable '\(name.text)' (\(what)) is not set")
                return nil
            }
            secrets.append(value)
            return value
        }

        mutating func endpoints(link: String) -> [Endpoint: String] {
            var endpoints: [Endpoint: String] = [:]
            if let node = document["endpoints"], let mapping = reader.mapping(node, "'endpoints'") {
                reader.checkKeys(mapping, allowed: Endpoint.allCases.map(\.rawValue), in: "'endpoints'")
                for entry in mapping.entries {
                    guard let endpoint = Endpoint(rawValue: entry.key.text), let scalar = reader.scalar(entry.value, "an endpoint URL") else {
                        continue
                    }
                    let url = expand(scalar)
                    let lower = url.lowercased()
                    if !(lower.hasPrefix("http://") || lower.hasPrefix("https://")) || url.contains("@") || url.contains("#") {
                        reader.error(at: scalar.location, "an endpoint is an absolute http(s) URL without userinfo or fragment")
                    }
                    endpoints[endpoint] = url
                }
            }
            if endpoints[.siteAssociation] != nil, endpoints[.linkSiteAssociation] == nil,
                let host = TargetConfigurationLoader.authority(ofLink: link)
            {
                endpoints[.linkSiteAssociation] = "https://\(host)/.well-known/apple-app-site-association"
            }
            return endpoints
        }

        mutating func decorations() -> [Scenario: [(name: String, value: String)]] {
            var decorations: [Scenario: [(name: String, value: String)]] = [:]
            guard let node = document["scenarios"], let mapping = reader.mapping(node, "'scenarios'") else { return decorations }
            for entry in mapping.entries {
                guard let scenario = reader.enumValue(.scalar(entry.key), "scenario", as: Scenario.self),
                    let headers = reader.mapping(entry.value, "the headers of scenario '\(entry.key.text)'")
                else { continue }
                var list: [(name: String, value: String)] = []
                for header in headers.entries {
                    guard let value = reader.scalar(header.value, "header '\(header.key.text)'") else { continue }
                    if header.key.text.contains(where: { $0 == ":" || $0 == " " || $0 == "\r" || $0 == "\n" }) {
                        reader.error(at: header.key.location, "'\(header.key.text)' is not a header name")
                    }
                    let expanded = expand(value)
                    if expanded.contains(where: { $0 == "\r" || $0 == "\n" }) {
                        reader.error(at: value.location, "a header value cannot contain a line break")
                    }
                    list.append((header.key.text, expanded))
                }
                decorations[scenario] = list
            }
            return decorations
        }

        mutating func secondClient() -> (id: String, secret: String)? {
            guard let secondID = text("second_client_id").map({ expand($0) }) else { return nil }
            guard let name = text("second_client_secret_env") else {
                reader.error(at: document.location, "'second_client_id' needs 'second_client_secret_env'")
                return nil
            }
            return secret(named: name, what: "the second client's secret").map { (secondID, $0) }
        }

        /// How each scenario's test user signs in through the real pages, and the origins the walk may visit.
        mutating func signIn(into configuration: inout TargetConfiguration) throws(DiagnosticList) {
            guard let node = document["sign_in"], let mapping = reader.mapping(node, "'sign_in'") else { return }
            for entry in mapping.entries {
                if entry.key.text == "origins" {
                    configuration.signInOrigins = reader.scalarList(entry.value, "'origins'")?.map(\.text) ?? []
                    continue
                }
                guard let scenario = reader.enumValue(.scalar(entry.key), "scenario (or 'origins')", as: Scenario.self),
                    let script = reader.mapping(entry.value, "the sign-in of scenario '\(entry.key.text)'"),
                    reader.checkKeys(
                        script, allowed: ["form", "fields", "consent_form", "consent_button"], required: ["form", "fields"],
                        in: "a sign-in")
                else { continue }
                var fields: [String: String] = [:]
                if let fieldsNode = script["fields"], let fieldMap = reader.mapping(fieldsNode, "'fields'") {
                    for field in fieldMap.entries {
                        guard let value = reader.scalar(field.value, "field '\(field.key.text)'") else { continue }
                        let known = secrets.count
                        let expanded = expand(value)
                        fields[field.key.text] = expanded
                        // A secret wherever it could show up: what comes from the environment (`${env:NAME}`, the
                        // partner's way of marking a value secret) and a field named as a credential. A user name
                        // written in the file is not one: hidden, it would blank it out of the reproduce commands.
                        if !expanded.isEmpty, secrets.count > known || SignInScript.isCredential(field.key.text) {
                            configuration.secrets.append(expanded)
                        }
                    }
                }
                let selector = script["form"].flatMap { reader.scalar($0, "'form'") }?.text ?? ""
                configuration.signIn[scenario] = SignInScript(
                    form: selector, fields: fields, consentForm: script["consent_form"].flatMap { reader.scalar($0, "'consent_form'") }?.text,
                    consentButton: script["consent_button"].flatMap { reader.scalar($0, "'consent_button'") }?.text)
            }
            if !reader.diagnostics.isEmpty { throw DiagnosticList(reader.diagnostics) }
        }

        /// What enables more cases: a native client, a narrowed scope, the throttling probe, declared lifetimes.
        mutating func options(into configuration: inout TargetConfiguration) throws(DiagnosticList) {
            if let id = text("native_client_id") {
                let uris = document["native_redirect_uris"].flatMap { reader.scalarList($0, "'native_redirect_uris'") }?.map(\.text) ?? []
                if uris.isEmpty, let node = document["native_client_id"] {
                    reader.error(at: node.location, "'native_client_id' needs 'native_redirect_uris': the redirect URIs registered for it")
                    throw DiagnosticList(reader.diagnostics)
                }
                configuration.nativeClient = NativeClient(id: id.text, redirectURIs: uris)
            }
            if case .scalar(let declared) = document["narrowed_scope"] {
                // A declaration that the server never narrows: the narrowing's case does not apply to it.
                guard declared.text == "none" else {
                    reader.error(
                        at: declared.location,
                        "'narrowed_scope' is {request, granted}, a request the server grants only in part, "
                            + "or 'none' when it never grants part of a request")
                    throw DiagnosticList(reader.diagnostics)
                }
                configuration.neverNarrows = true
            } else if let node = document["narrowed_scope"], let mapping = reader.mapping(node, "'narrowed_scope'") {
                reader.checkKeys(mapping, allowed: ["request", "granted"], in: "'narrowed_scope'")
                let request = mapping["request"].flatMap { reader.scalar($0, "'request'") }?.text ?? ""
                let granted = mapping["granted"].flatMap { reader.scalar($0, "'granted'") }?.text ?? ""
                let narrowed = NarrowedScope(request: request, granted: granted)
                if let problem = narrowed.problem {
                    reader.error(at: node.location, "'narrowed_scope' is a scope request and the part of it the server grants: \(problem)")
                    throw DiagnosticList(reader.diagnostics)
                }
                configuration.narrowedScope = narrowed
            }
            if let probe = text("throttling_probe") {
                guard ["true", "false"].contains(probe.text) else {
                    reader.error(at: probe.location, "'throttling_probe' is true (send the burst of wrong secrets) or false")
                    throw DiagnosticList(reader.diagnostics)
                }
                configuration.throttlingProbe = probe.text == "true"
            }
            if let caFile = text("ca_file") {
                let path = expand(caFile)
                configuration.caFile = path.hasPrefix("/") ? path : (URL(fileURLWithPath: file).deletingLastPathComponent().path + "/" + path)
            }
            if let node = document["resolve"], let entries = reader.scalarList(node, "'resolve'") {
                for entry in entries {
                    let parts = entry.text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
                    guard parts.count == 3, !parts[0].isEmpty, let port = Int(parts[1]), (1...65_535).contains(port), !parts[2].isEmpty else {
                        reader.error(
                            at: entry.location, "each 'resolve' entry is HOST:PORT:ADDRESS (curl's form, e.g. auth.example.com:443:127.0.0.1)")
                        throw DiagnosticList(reader.diagnostics)
                    }
                    configuration.resolve.append(entry.text)
                }
            }
            configuration.tokenLifetime =
                try lifetime("token_lifetime", upTo: 86_400, "'token_lifetime' is the access token's lifetime in seconds, from 1 to 86400")
                ?? configuration.tokenLifetime
            configuration.codeLifetime =
                try lifetime("code_lifetime", upTo: 3600, "'code_lifetime' is the authorization code's lifetime in seconds, from 1 to 3600")
                ?? configuration.codeLifetime
        }

        /// A declared lifetime in seconds, from 1 to `maximum`; nil when not given.
        mutating func lifetime(_ key: String, upTo maximum: Double, _ message: String) throws(DiagnosticList) -> Double? {
            guard let lifetime = text(key) else { return nil }
            guard let seconds = Double(lifetime.text), seconds > 0, seconds <= maximum else {
                reader.error(at: lifetime.location, message)
                throw DiagnosticList(reader.diagnostics)
            }
            return seconds
        }
    }

    /// Replaces `${env:NAME}` with the variable's value (recorded as a secret); an unset variable is an error.
    private static func substituteEnvironment(
        _ scalar: Node.Scalar, environment: [String: String], secrets: inout [String],
        reader: inout NodeReader
    ) -> String {
        var result = ""
        var rest = Substring(scalar.text)
        while let start = rest.range(of: "${env:") {
            result += rest[..<start.lowerBound]
            guard let close = rest[start.upperBound...].firstIndex(of: "}") else {
                reader.error(at: scalar.location, "'${env:' without a closing '}'")
                return result
            }
            let name = String(rest[start.upperBound..<close])
            if let value = environment[name], !value.isEmpty {
                result += value
                secrets.append(value)
            } else {
                reader.error(at: scalar.location, "the environment variable '\(name)' is not set")
            }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// The host (and port) of an https link, or nil when the link is not one.
    static func authority(ofLink link: String) -> String? {
        guard link.lowercased().hasPrefix("https://") else { return nil }
        let authority = link.dropFirst(8).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return authority.isEmpty || authority.contains("@") ? nil : String(authority)
    }
}
