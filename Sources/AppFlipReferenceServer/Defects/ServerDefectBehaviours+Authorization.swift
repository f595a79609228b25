import AppFlipBase
import AppFlipHTTP
import Foundation

extension ServerDefectBehaviours {
    /// The authorization endpoint's defects, each one answer a real server gets wrong.
    static func authorizationDefects(_ configuration: ReferenceServerConfiguration) -> [Behaviour] {
        [
            stateTruncated,
            refusalWithoutState,
            refusalAsServerError,
            anyResponseType,
            refusesUnknownParameters,
            authorizeFirstOfRepeated,
            missingScopeServerError,
            consentWithoutCsrf,
            openReturnTo,
            consent307,
            corsOnAuthorize,
            sandboxToProduction,
            sandboxUriRefused,
            plainOnlyPkce,
            sequentialCodes,
        ].map { $0(configuration) }
    }

    /// Whether a request is an authorization request of Google's client.
    static func isGoogle(_ request: HTTPRequest, _ configuration: ReferenceServerConfiguration) -> Bool {
        request.path == "/oauth/authorize" && request.queryPieces.contains("client_id=" + FormEncoding.encode(configuration.clientID))
    }

    /// `state-truncated`: see its entry in the defect catalog (`ServerDefects`).
    static func stateTruncated(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("state-truncated") { reference in
            { request in
                // Keeps at most 1,024 characters of a state (a column too narrow), and returns what it kept.
                guard isGoogle(request, configuration), let state = pieceValue("state", in: request.queryPieces), state.count > 1024 else {
                    return reference(request)
                }
                let kept = String(state.prefix(1024))
                return reference(
                    request.with(query: request.queryPieces.map { $0.hasPrefix("state=") ? "state=" + FormEncoding.encode(kept) : $0 }))
            }
        }
    }

    /// `refusal-without-state`: see its entry in the defect catalog (`ServerDefects`).
    static func refusalWithoutState(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("refusal-without-state") { reference in
            { request in
                // Builds the refusal's redirect by hand and forgets the state.
                let response = reference(request)
                guard request.path == "/oauth/authorize" || request.path == "/oauth/consent",
                    response.locationPieces.contains("error=access_denied")
                else { return response }
                return response.editingLocation { removingParameter("state", from: $0) }
            }
        }
    }

    /// `refusal-as-server-error`: see its entry in the defect catalog (`ServerDefects`).
    static func refusalAsServerError(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("refusal-as-server-error") { reference in
            { request in
                // Answers a user's refusal with server_error, as a server whose consent page throws on Cancel.
                let response = reference(request)
                guard request.path == "/oauth/authorize" || request.path == "/oauth/consent" else { return response }
                return response.editingLocation { $0.replacingOccurrences(of: "error=access_denied", with: "error=server_error") }
            }
        }
    }

    /// `any-response-type`: see its entry in the defect catalog (`ServerDefects`).
    static func anyResponseType(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("any-response-type") { reference in
            { request in
                // Issues a code whatever response_type says (token, id_token, none).
                guard isGoogle(request, configuration), let type = pieceValue("response_type", in: request.queryPieces), type != "code" else {
                    return reference(request)
                }
                return reference(request.with(query: request.queryPieces.map { $0.hasPrefix("response_type=") ? "response_type=code" : $0 }))
            }
        }
    }

    /// `refuses-unknown-parameters`: see its entry in the defect catalog (`ServerDefects`).
    static func refusesUnknownParameters(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("refuses-unknown-parameters") { reference in
            { request in
                // Refuses a parameter it does not know with invalid_request, where RFC 6749 §3.1 says ignore it.
                let known = ["response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge", "code_challenge_method"]
                guard isGoogle(request, configuration),
                    request.queryPieces.contains(where: { !known.contains(String($0.prefix { $0 != "=" })) })
                else { return reference(request) }
                let response = reference(request.with(query: request.queryPieces.filter { known.contains(String($0.prefix { $0 != "=" })) }))
                return response.editingLocation { location in
                    let state = pieceValue("state", in: request.queryPieces).map { "&state=" + FormEncoding.encode($0) } ?? ""
                    return (location.split(separator: "?").first.map(String.init) ?? location) + "?error=invalid_request" + state
                }
            }
        }
    }

    /// `authorize-first-of-repeated`: see its entry in the defect catalog (`ServerDefects`).
    static func authorizeFirstOfRepeated(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("authorize-first-of-repeated") { reference in
            { request in
                // Takes the first copy of a repeated parameter instead of refusing the request.
                guard request.path == "/oauth/authorize" else { return reference(request) }
                var seen = Set<String>()
                return reference(request.with(query: request.queryPieces.filter { seen.insert(String($0.prefix { $0 != "=" })).inserted }))
            }
        }
    }

    /// `missing-scope-server-error`: see its entry in the defect catalog (`ServerDefects`).
    static func missingScopeServerError(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("missing-scope-server-error") { reference in
            { request in
                // Fails on a request without a scope parameter: an error redirect with server_error.
                guard isGoogle(request, configuration), !request.queryPieces.contains(where: { $0.hasPrefix("scope=") }) else {
                    return reference(request)
                }
                let response = reference(request)
                guard response.status == 302 else { return response }
                let state = pieceValue("state", in: request.queryPieces).map { "&state=" + FormEncoding.encode($0) } ?? ""
                let target = pieceValue("redirect_uri", in: request.queryPieces) ?? ""
                return HTTPResponse(status: 302, headers: HTTPHeaders([("Location", target + "?error=server_error" + state)]))
            }
        }
    }

    /// `consent-without-csrf`: see its entry in the defect catalog (`ServerDefects`).
    static func consentWithoutCsrf(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("consent-without-csrf") { reference in
            { request in
                // Takes the consent form whatever its anti-forgery field says: it fetches a fresh one for the session.
                guard request.path == "/oauth/consent", request.method == "POST", let query = pieceValue("request", in: request.formPieces)
                else { return reference(request) }
                var page = HTTPRequest(method: "GET", target: "/oauth/authorize?" + query)
                if let cookie = request.headers["Cookie"] { page.headers.append("Cookie", cookie) }
                let html = String(decoding: reference(page).body, as: UTF8.self)
                guard let start = html.range(of: #"name="csrf" value=""#),
                    let end = html[start.upperBound...].firstIndex(of: "\"")
                else { return reference(request) }
                let token = String(html[start.upperBound..<end])
                return reference(
                    request.with(form: request.formPieces.filter { !$0.hasPrefix("csrf=") } + ["csrf=" + FormEncoding.encode(token)]))
            }
        }
    }

    /// `open-return-to`: see its entry in the defect catalog (`ServerDefects`).
    static func openReturnTo(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("open-return-to") { reference in
            { request in
                // After a sign-in, redirects wherever return_to says, another origin included.
                guard request.path == "/login", let target = pieceValue("return_to", in: request.formPieces),
                    !target.hasPrefix("/oauth/authorize?")
                else { return reference(request) }
                let response = reference(
                    request.with(form: request.formPieces.map { $0.hasPrefix("return_to=") ? "return_to=%2Foauth%2Fauthorize%3F" : $0 }))
                guard response.status == 303 else { return response }
                return response.editingLocation { _ in target }
            }
        }
    }

    /// `consent-307`: see its entry in the defect catalog (`ServerDefects`).
    static func consent307(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("consent-307") { reference in
            { request in
                // Answers the consent form's POST with 307 where 303 belongs, so the browser would post the form to the client.
                var response = reference(request)
                if request.path == "/oauth/consent", response.status == 303 { response.status = 307 }
                return response
            }
        }
    }

    /// `cors-on-authorize`: see its entry in the defect catalog (`ServerDefects`).
    static func corsOnAuthorize(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("cors-on-authorize") { reference in
            { request in
                // Lets any origin's script read its authorization responses.
                var response = reference(request)
                if request.path == "/oauth/authorize" {
                    response.headers.append("Access-Control-Allow-Origin", request.headers["Origin"] ?? "*")
                    response.headers.append("Access-Control-Allow-Credentials", "true")
                }
                return response
            }
        }
    }

    /// `sandbox-to-production`: see its entry in the defect catalog (`ServerDefects`).
    static func sandboxToProduction(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("sandbox-to-production") { reference in
            { request in
                // Keeps one redirect URI per client: a sandbox request is answered at the production URI.
                let sandbox = "https://oauth-redirect-sandbox.googleusercontent.com/r/" + configuration.projectID
                let response = reference(request)
                guard request.path == "/oauth/authorize" || request.path == "/oauth/consent" else { return response }
                return response.editingLocation { location in
                    location.hasPrefix(sandbox + "?")
                        ? "https://oauth-redirect.googleusercontent.com/r/" + configuration.projectID + location.dropFirst(sandbox.count)
                        : location
                }
            }
        }
    }

    /// `sandbox-uri-refused`: see its entry in the defect catalog (`ServerDefects`).
    static func sandboxUriRefused(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("sandbox-uri-refused") { reference in
            { request in
                // Registered only Google's production redirect URI: the sandbox one gets the error page.
                guard isGoogle(request, configuration),
                    pieceValue("redirect_uri", in: request.queryPieces) == "https://oauth-redirect-sandbox.googleusercontent.com/r/"
                        + configuration.projectID
                else { return reference(request) }
                return HTTPResponse(
                    status: 400, headers: HTTPHeaders([("Content-Type", "text/html"), ("X-Frame-Options", "DENY")]),
                    body: Array("<p>redirect_uri is not registered</p>".utf8))
            }
        }
    }

    /// `plain-only-pkce`: see its entry in the defect catalog (`ServerDefects`).
    static func plainOnlyPkce(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("plain-only-pkce") { reference in
            { request in
                // Supports the plain method only: an S256 challenge gets invalid_request.
                guard isGoogle(request, configuration), request.queryPieces.contains("code_challenge_method=S256") else { return reference(request) }
                return reference(request).editingLocation { location in
                    let state = pieceValue("state", in: request.queryPieces).map { "&state=" + FormEncoding.encode($0) } ?? ""
                    return (location.split(separator: "?").first.map(String.init) ?? location) + "?error=invalid_request" + state
                }
            }
        }
    }

    /// `sequential-codes`: see its entry in the defect catalog (`ServerDefects`).
    static func sequentialCodes(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("sequential-codes") { reference in
            let aliases = CountingAliases(prefix: "c-")
            return { request in
                // Hands out codes c-1, c-2, …: unique, and guessable; the token endpoint takes them for the real ones.
                if request.path == "/oauth/token", let code = request.formPieces.first(where: { $0.hasPrefix("code=") }),
                    let real = aliases.real(String(code.dropFirst(5)))
                {
                    return reference(request.with(form: request.formPieces.map { $0.hasPrefix("code=") ? "code=" + real : $0 }))
                }
                let response = reference(request)
                guard request.path == "/oauth/authorize" || request.path == "/oauth/consent",
                    let code = response.locationPieces.first(where: { $0.hasPrefix("code=") })
                else { return response }
                let alias = aliases.alias(for: String(code.dropFirst(5)))
                return response.editingLocation { $0.replacingOccurrences(of: code, with: "code=" + alias) }
            }
        }
    }
}
