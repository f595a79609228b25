import AppFlipBase
import AppFlipHTTP
import Foundation

/// How each server of `ServerDefects` (the catalog) behaves: the reference server's handler, wrapped so that one
/// endpoint answers as a real partner's gets it wrong, or as another correct server does it. Looked up by name.
package enum ServerDefectBehaviours {
    /// One behaviour: the catalog's name and the wrapper around the reference's handler.
    package struct Behaviour: Sendable {
        package var name: String
        package var wrap: @Sendable (@escaping HTTPServer.Handler) -> HTTPServer.Handler

        init(_ name: String, wrap: @escaping @Sendable (@escaping HTTPServer.Handler) -> HTTPServer.Handler) {
            self.name = name
            self.wrap = wrap
        }
    }

    /// The behaviour named `name`, for a server set up with `configuration`; nil for a name the catalog lacks.
    package static func behaviour(_ name: String, configuration: ReferenceServerConfiguration) -> Behaviour? {
        (defects(configuration) + variants).first { $0.name == name }
    }

    /// The configuration a server with the defect `name` runs with: the given one, but for a defect that lives in the
    /// reference's own settings rather than in a wrapper (codes that outlive what the server declares).
    package static func configuration(for name: String, _ configuration: ReferenceServerConfiguration) -> ReferenceServerConfiguration {
        var adjusted = configuration
        if name == "codes-never-expire" { adjusted.codeLifetime = 86_400 }
        return adjusted
    }

    /// How a server with the defect `name` answers requests that reach its https port in plain text, given the
    /// reference's handler: nil for every defect but the two that serve http beside https.
    package static func plainHTTP(for name: String, _ reference: @escaping HTTPServer.Handler) -> HTTPServer.Handler? {
        switch name {
        case "authorize-over-plain-http":
            // Every endpoint answers over http as over https: the sign-in page too.
            return reference
        case "plain-http-redirects-to-http":
            // A front that "canonicalizes" plain requests to another http URL instead of upgrading them to https.
            return { request in
                let host = (request.headers["Host"] ?? "127.0.0.1").split(separator: ":").first.map(String.init) ?? "127.0.0.1"
                return HTTPResponse(status: 301, headers: HTTPHeaders([("Location", "http://www.\(host)\(request.target)")]))
            }
        default:
            return nil
        }
    }

    /// Every behaviour's name: the catalog's server entries must be exactly these (a test holds it).
    package static func names(configuration: ReferenceServerConfiguration) -> [String] {
        (defects(configuration) + variants).map(\.name)
    }

    static func defects(_ configuration: ReferenceServerConfiguration) -> [Behaviour] {
        authorizationDefects(configuration) + tokenDefects(configuration)
            + [
                codesNeverExpire,
                authorizeOverPlainHttp,
                plainHttpRedirectsToHttp,
                narrowedScopeUnreported,
                issAdvertisedNotSent,
                nativeRefreshNotRotated,
                nativeFixedPort,
                nativePrefixMatch,
                nativeSecretRequired,
                counterAccessTokens,
                apiRefusesTokens,
                revokeTrustsHint,
                revokeAnyClient,
                rotationWithoutGrace,
                redirectPathAnyCase,
                clientIdAnyCase,
                refreshAnyClient,
                refreshWidensScope,
                anyRedirectUri,
                missingChallengeWrongError,
                replayKeepsTokens,
                redirectsUnknownClient,
                reusableCodes,
                pkceNotVerified,
                noNoStore,
                revokeUnknown400,
                framablePages,
                revokeSparesRefreshedTokens,
                basicWithoutWwwAuthenticate,
            ].map { $0(configuration) }
    }

    /// Declares a code lifetime and keeps codes a day (`configuration(for:_:)`): the wrapper itself changes nothing.
    static func codesNeverExpire(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("codes-never-expire") { reference in reference }
    }

    /// Serve http beside https on the same port (`plainHTTP(for:_:)`): over https they change nothing.
    static func authorizeOverPlainHttp(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("authorize-over-plain-http") { reference in reference }
    }

    /// `plain-http-redirects-to-http`: see its entry in the defect catalog (`ServerDefects`).
    static func plainHttpRedirectsToHttp(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("plain-http-redirects-to-http") { reference in reference }
    }

    /// `narrowed-scope-unreported`: see its entry in the defect catalog (`ServerDefects`).
    static func narrowedScopeUnreported(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("narrowed-scope-unreported") { reference in
            { request in
                // Never says which scope it granted, even when it granted less than was asked.
                let response = reference(request)
                guard request.path == "/oauth/token" else { return response }
                return response.editingJSON { $0.removeValue(forKey: "scope") }
            }
        }
    }

    /// `iss-advertised-not-sent`: see its entry in the defect catalog (`ServerDefects`).
    static func issAdvertisedNotSent(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("iss-advertised-not-sent") { reference in
            { request in
                // The metadata advertises iss, but the authorization responses leave it out.
                var response = reference(request)
                guard request.path == "/oauth/authorize", let location = response.headers["Location"] else { return response }
                let kept = location.split(separator: "&").filter { !$0.hasPrefix("iss=") }.joined(separator: "&")
                response.headers.fields.removeAll { $0.name == "Location" }
                response.headers.append("Location", kept)
                return response
            }
        }
    }

    /// `native-refresh-not-rotated`: see its entry in the defect catalog (`ServerDefects`).
    static func nativeRefreshNotRotated(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("native-refresh-not-rotated") { reference in
            { request in
                // Answers a public client's bare refresh without rotating: the refresh token is neither rotated nor bound.
                let response = reference(request)
                let body = String(decoding: request.body, as: UTF8.self)
                guard request.path == "/oauth/token", body.contains("grant_type=refresh_token"), body.contains("client_id=native-app") else {
                    return response
                }
                return response.editingJSON { $0.removeValue(forKey: "refresh_token") }
            }
        }
    }

    /// `native-fixed-port`: see its entry in the defect catalog (`ServerDefects`).
    static func nativeFixedPort(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("native-fixed-port") { reference in
            { request in
                // Accepts the native client's loopback URI only on the registered (default) port.
                guard request.path == "/oauth/authorize", let query = request.query, query.contains("client_id=native-app"),
                    query.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A")
                else { return reference(request) }
                return HTTPResponse(
                    status: 400, headers: HTTPHeaders([("Content-Type", "text/html"), ("X-Frame-Options", "DENY")]),
                    body: Array("<p>redirect_uri mismatch</p>".utf8))
            }
        }
    }

    /// `native-prefix-match`: see its entry in the defect catalog (`ServerDefects`).
    static func nativePrefixMatch(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("native-prefix-match") { reference in
            { request in
                // Matches the native client's redirect URI by prefix, so a longer path gets the code.
                guard request.path == "/oauth/authorize", let query = request.query, query.contains("client_id=native-app"),
                    let pair = query.split(separator: "&").first(where: { $0.hasPrefix("redirect_uri=") }),
                    let sent = String(pair.dropFirst(13)).removingPercentEncoding, sent.hasPrefix("http://127.0.0.1:51004/callback"),
                    sent != "http://127.0.0.1:51004/callback"
                else { return reference(request) }
                return HTTPResponse(status: 302, headers: HTTPHeaders([("Location", sent + "?code=prefix-code")]))
            }
        }
    }

    /// `native-secret-required`: see its entry in the defect catalog (`ServerDefects`).
    static func nativeSecretRequired(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("native-secret-required") { reference in
            { request in
                // Treats the native client as confidential: no secret, no token.
                let body = String(decoding: request.body, as: UTF8.self)
                guard request.path == "/oauth/token", body.contains("client_id=native-app"), !body.contains("client_secret=") else {
                    return reference(request)
                }
                return HTTPResponse(
                    status: 401, headers: HTTPHeaders([("Content-Type", "application/json")]), body: Array(#"{"error":"invalid_client"}"#.utf8))
            }
        }
    }

    /// `counter-access-tokens`: see its entry in the defect catalog (`ServerDefects`).
    static func counterAccessTokens(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("counter-access-tokens") { reference in
            let aliases = CountingAliases(prefix: "at-")
            return { request in
                // Hands out "at-1", "at-2", …: all different, all guessable. The API and revocation see the real ones.
                var forwarded = request
                if let bearer = request.headers["Authorization"], bearer.hasPrefix("Bearer at-"),
                    let real = aliases.real(String(bearer.dropFirst(7)))
                {
                    forwarded.headers.fields.removeAll { $0.name == "Authorization" }
                    forwarded.headers.append("Authorization", "Bearer " + real)
                }
                if request.path == "/oauth/revoke" {
                    let form = String(decoding: request.body, as: UTF8.self).split(separator: "&").map { pair -> String in
                        guard pair.hasPrefix("token="), let real = aliases.real(String(pair.dropFirst(6))) else { return String(pair) }
                        return "token=" + FormEncoding.encode(real)
                    }
                    forwarded.body = Array(form.joined(separator: "&").utf8)
                }
                let response = reference(forwarded)
                guard request.path == "/oauth/token", let real = response.jsonString("access_token") else { return response }
                let alias = aliases.alias(for: real)
                return response.editingJSON { $0["access_token"] = alias }
            }
        }
    }

    /// `api-refuses-tokens`: see its entry in the defect catalog (`ServerDefects`).
    static func apiRefusesTokens(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("api-refuses-tokens") { reference in
            { request in
                // The API wants a token type the token endpoint never issues.
                guard request.path == "/api/userinfo" else { return reference(request) }
                return HTTPResponse(status: 401, headers: HTTPHeaders([("WWW-Authenticate", "Bearer error=\"invalid_token\"")]))
            }
        }
    }

    /// `revoke-trusts-hint`: see its entry in the defect catalog (`ServerDefects`).
    static func revokeTrustsHint(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("revoke-trusts-hint") { reference in
            { request in
                // Looks only among access tokens when the hint says so: a refresh token with a wrong hint survives.
                let body = String(decoding: request.body, as: UTF8.self)
                if request.path == "/oauth/revoke", body.contains("token_type_hint=access_token"), body.contains("token=rt-") {
                    return HTTPResponse(status: 200, headers: HTTPHeaders([("Cache-Control", "no-store")]))
                }
                return reference(request)
            }
        }
    }

    /// `revoke-any-client`: see its entry in the defect catalog (`ServerDefects`).
    static func revokeAnyClient(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("revoke-any-client") { reference in
            { request in
                // Revokes whatever token it is given, whoever asks: forwards the second client's request as Google's.
                let body = String(decoding: request.body, as: UTF8.self)
                guard request.path == "/oauth/revoke", body.contains("client_id=\(ReferenceServerConfiguration.secondClientID)") else {
                    return reference(request)
                }
                var forwarded = request
                forwarded.body = Array(
                    body.replacingOccurrences(
                        of: "client_id=\(ReferenceServerConfiguration.secondClientID)", with: "client_id=\(configuration.clientID)"
                    )
                    .replacingOccurrences(
                        of: "client_secret=\(ReferenceServerConfiguration.secondClientSecret)",
                        with: "client_secret=\(configuration.clientSecret)"
                    ).utf8)
                return reference(forwarded)
            }
        }
    }

    /// `rotation-without-grace`: see its entry in the defect catalog (`ServerDefects`).
    static func rotationWithoutGrace(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("rotation-without-grace", wrap: RotatingRefresh.wrap(grace: false))
    }

    /// `redirect-path-any-case`: see its entry in the defect catalog (`ServerDefects`).
    static func redirectPathAnyCase(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("redirect-path-any-case") { reference in
            { request in
                // Matches the redirect URI's path without regard to case: /R/ is taken for the registered /r/.
                guard request.path == "/oauth/authorize", let query = request.query else { return reference(request) }
                var forwarded = request
                forwarded.target =
                    String(request.path) + "?"
                    + query.replacingOccurrences(of: "googleusercontent.com%2FR%2F", with: "googleusercontent.com%2Fr%2F")
                    .replacingOccurrences(of: "googleusercontent.com/R/", with: "googleusercontent.com/r/")
                return reference(forwarded)
            }
        }
    }

    /// `client-id-any-case`: see its entry in the defect catalog (`ServerDefects`).
    static func clientIdAnyCase(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("client-id-any-case") { reference in
            { request in
                // Finds the client without regard to case (a case-insensitive collation): GOOGLE-CLIENT is taken as Google's.
                guard request.path == "/oauth/authorize", let query = request.query else { return reference(request) }
                let pairs = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
                    guard pair.hasPrefix("client_id="), let value = String(pair.dropFirst("client_id=".count)).removingPercentEncoding,
                        value != configuration.clientID, value.lowercased() == configuration.clientID.lowercased()
                    else { return String(pair) }
                    return "client_id=" + configuration.clientID
                }
                var forwarded = request
                forwarded.target = String(request.path) + "?" + pairs.joined(separator: "&")
                return reference(forwarded)
            }
        }
    }

    /// `refresh-any-client`: see its entry in the defect catalog (`ServerDefects`).
    static func refreshAnyClient(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("refresh-any-client") { reference in
            { request in
                // Lets any authenticated client refresh any token: the second client's refresh is answered as Google's.
                let body = String(decoding: request.body, as: UTF8.self)
                guard request.path == "/oauth/token", body.contains("grant_type=refresh_token"),
                    body.contains("client_id=\(ReferenceServerConfiguration.secondClientID)")
                else {
                    return reference(request)
                }
                return HTTPResponse(
                    status: 200, headers: HTTPHeaders([("Content-Type", "application/json"), ("Cache-Control", "no-store")]),
                    body: Array(#"{"access_token":"at-stolen","token_type":"Bearer","expires_in":3600}"#.utf8))
            }
        }
    }

    /// `refresh-widens-scope`: see its entry in the defect catalog (`ServerDefects`).
    static func refreshWidensScope(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("refresh-widens-scope") { reference in
            { request in
                // Grants whatever scope a refresh asks for, and says so.
                let body = String(decoding: request.body, as: UTF8.self)
                guard request.path == "/oauth/token", body.contains("grant_type=refresh_token"),
                    let asked = body.split(separator: "&").first(where: { $0.hasPrefix("scope=") })
                else { return reference(request) }
                let scope = String(asked.dropFirst("scope=".count)).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
                return reference(request.withoutFormParameter("scope")).editingJSON { object in
                    if object["access_token"] != nil, let scope { object["scope"] = scope }
                }
            }
        }
    }

    /// `any-redirect-uri`: see its entry in the defect catalog (`ServerDefects`).
    static func anyRedirectUri(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("any-redirect-uri") { reference in
            { request in
                // Authorizes Google's client against the registered URI whatever was sent, then redirects to what was sent.
                guard request.path == "/oauth/authorize", let query = request.query,
                    query.split(separator: "&").contains(where: { $0 == "client_id=" + FormEncoding.encode(configuration.clientID) })
                else { return reference(request) }
                var sent: String?
                let pairs = query.split(separator: "&").map { pair -> String in
                    guard pair.hasPrefix("redirect_uri=") else { return String(pair) }
                    sent = String(pair.dropFirst("redirect_uri=".count)).removingPercentEncoding
                    return "redirect_uri=" + FormEncoding.encode("https://oauth-redirect.googleusercontent.com/r/" + configuration.projectID)
                }
                var forwarded = request
                forwarded.target = "/oauth/authorize?" + pairs.joined(separator: "&")
                var response = reference(forwarded)
                if let sent, let location = response.headers["Location"], let mark = location.firstIndex(of: "?") {
                    response.headers.fields.removeAll { $0.name == "Location" }
                    response.headers.append("Location", sent + location[mark...])
                }
                return response
            }
        }
    }

    /// `missing-challenge-wrong-error`: see its entry in the defect catalog (`ServerDefects`).
    static func missingChallengeWrongError(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("missing-challenge-wrong-error") { reference in
            { request in
                // Requires PKCE, but refuses a method without a challenge with another error than invalid_request.
                var response = reference(request)
                guard request.path == "/oauth/authorize", let query = request.query, query.contains("code_challenge_method="),
                    !query.contains("code_challenge="), let location = response.headers["Location"],
                    location.contains("error=invalid_request")
                else { return response }
                response.headers.fields.removeAll { $0.name == "Location" }
                response.headers.append("Location", location.replacingOccurrences(of: "error=invalid_request", with: "error=unauthorized_client"))
                return response
            }
        }
    }

    /// `replay-keeps-tokens`: see its entry in the defect catalog (`ServerDefects`).
    static func replayKeepsTokens(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("replay-keeps-tokens") { reference in
            let redeemed = CodeSet()
            return { request in
                // Refuses a replayed code itself, so the tokens of its first redemption are never revoked.
                let body = String(decoding: request.body, as: UTF8.self)
                guard request.path == "/oauth/token", body.contains("grant_type=authorization_code"),
                    let code = body.split(separator: "&").first(where: { $0.hasPrefix("code=") }).map(String.init)
                else { return reference(request) }
                if redeemed.contains(code) {
                    return HTTPResponse(
                        status: 400, headers: HTTPHeaders([("Content-Type", "application/json"), ("Cache-Control", "no-store")]),
                        body: Array(#"{"error":"invalid_grant"}"#.utf8))
                }
                let response = reference(request)
                if response.status == 200 { redeemed.insert(code) }
                return response
            }
        }
    }

    /// `redirects-unknown-client`: see its entry in the defect catalog (`ServerDefects`).
    static func redirectsUnknownClient(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("redirects-unknown-client") { reference in
            { request in
                // A client it does not know still gets its redirect_uri honoured, with an error.
                let response = reference(request)
                let known = [configuration.clientID, ReferenceServerConfiguration.secondClientID, ReferenceServerConfiguration.nativeClientID]
                guard request.path == "/oauth/authorize", response.status == 400, let pairs = request.query?.split(separator: "&"),
                    let client = pairs.first(where: { $0.hasPrefix("client_id=") }),
                    !known.contains(String(client.dropFirst("client_id=".count)).removingPercentEncoding ?? ""),
                    let redirect = pairs.first(where: { $0.hasPrefix("redirect_uri=") })
                else { return response }
                let target = String(redirect.dropFirst("redirect_uri=".count)).removingPercentEncoding ?? ""
                return HTTPResponse(status: 302, headers: HTTPHeaders([("Location", target + "?error=unauthorized_client")]))
            }
        }
    }

    /// `reusable-codes`: see its entry in the defect catalog (`ServerDefects`).
    static func reusableCodes(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("reusable-codes") { reference in
            let cache = ResponseCache()
            return { request in
                // Answers a code exchange it has answered before with the same tokens again.
                let key = String(decoding: request.body, as: UTF8.self)
                guard request.path == "/oauth/token", key.contains("grant_type=authorization_code") else { return reference(request) }
                if let cached = cache.get(key) { return cached }
                let response = reference(request)
                if response.status == 200 { cache.set(key, response) }
                return response
            }
        }
    }

    /// `pkce-not-verified`: see its entry in the defect catalog (`ServerDefects`).
    static func pkceNotVerified(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("pkce-not-verified") { reference in
            let unbound = CodeSet()
            return { request in
                // Never stores Google's well-formed challenges, so any verifier redeems the code (one must be sent).
                let pairs = (request.query ?? "").split(separator: "&")
                if request.path == "/oauth/authorize",
                    pairs.contains(where: { $0 == "client_id=" + FormEncoding.encode(configuration.clientID) }),
                    let challenge = pairs.first(where: { $0.hasPrefix("code_challenge=") })?.dropFirst("code_challenge=".count),
                    (43...128).contains(challenge.count),
                    challenge.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._~".contains($0)) }),
                    pairs.allSatisfy({
                        !$0.hasPrefix("code_challenge_method=") || $0 == "code_challenge_method=S256" || $0 == "code_challenge_method=plain"
                    })
                {
                    var forwarded = request
                    forwarded.target = "/oauth/authorize?" + pairs.filter { !$0.hasPrefix("code_challenge") }.joined(separator: "&")
                    let response = reference(forwarded)
                    let location = response.headers["Location"] ?? ""
                    let query = location.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
                    if let code = query.split(separator: "&").first(where: { $0.hasPrefix("code=") }) { unbound.insert(String(code)) }
                    return response
                }
                let body = String(decoding: request.body, as: UTF8.self)
                let form = body.split(separator: "&")
                guard request.path == "/oauth/token", let code = form.first(where: { $0.hasPrefix("code=") }), unbound.contains(String(code))
                else {
                    return reference(request)
                }
                guard form.contains(where: { $0.hasPrefix("code_verifier=") }) else {
                    return HTTPResponse(
                        status: 400, headers: HTTPHeaders([("Content-Type", "application/json"), ("Cache-Control", "no-store")]),
                        body: Array(#"{"error":"invalid_grant","error_description":"code_verifier required"}"#.utf8))
                }
                var forwarded = request
                forwarded.body = Array(form.filter { !$0.hasPrefix("code_verifier=") }.joined(separator: "&").utf8)
                return reference(forwarded)
            }
        }
    }

    /// `no-no-store`: see its entry in the defect catalog (`ServerDefects`).
    static func noNoStore(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("no-no-store") { reference in
            { request in
                var response = reference(request)
                if request.path == "/oauth/token" { response.headers.fields.removeAll { $0.name == "Cache-Control" || $0.name == "Pragma" } }
                return response
            }
        }
    }

    /// `revoke-unknown-400`: see its entry in the defect catalog (`ServerDefects`).
    static func revokeUnknown400(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("revoke-unknown-400") { reference in
            { request in
                let body = String(decoding: request.body, as: UTF8.self)
                if request.path == "/oauth/revoke", !body.contains("token=at-"), !body.contains("token=rt-"), body.contains("token=") {
                    return HTTPResponse(
                        status: 400, headers: HTTPHeaders([("Content-Type", "application/json")]),
                        body: Array(#"{"error":"invalid_request"}"#.utf8))
                }
                return reference(request)
            }
        }
    }

    /// `framable-pages`: see its entry in the defect catalog (`ServerDefects`).
    static func framablePages(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("framable-pages") { reference in
            { request in
                var response = reference(request)
                response.headers.fields.removeAll { $0.name == "X-Frame-Options" || $0.name == "Content-Security-Policy" }
                return response
            }
        }
    }

    /// `revoke-spares-refreshed-tokens`: see its entry in the defect catalog (`ServerDefects`).
    static func revokeSparesRefreshedTokens(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("revoke-spares-refreshed-tokens") { reference in
            let spared = SparedTokens()
            return { request in
                // Keeps the access tokens a refresh obtained where revoking their refresh token never looks (as a store
                // that files them apart from the grant does): the API keeps taking them until they expire or are
                // revoked one by one.
                let body = String(decoding: request.body, as: UTF8.self)
                let bearer = String((request.headers["Authorization"] ?? "").dropFirst("Bearer ".count))
                if request.path == ReferenceServer.apiPath, let answer = spared.answer(for: bearer) { return answer }
                if request.path == "/oauth/revoke",
                    let token = body.split(separator: "&").first(where: { $0.hasPrefix("token=") }).map({ String($0.dropFirst(6)) })
                {
                    spared.forget(token.removingPercentEncoding ?? token)
                }
                let response = reference(request)
                if request.path == "/oauth/token", body.contains("grant_type=refresh_token"), let access = response.jsonString("access_token") {
                    let probe = HTTPRequest(
                        method: "GET", target: ReferenceServer.apiPath, headers: HTTPHeaders([("Authorization", "Bearer " + access)]))
                    spared.keep(reference(probe), for: access, until: Date().addingTimeInterval(configuration.tokenLifetime))
                }
                return response
            }
        }
    }

    /// `basic-without-www-authenticate`: see its entry in the defect catalog (`ServerDefects`).
    static func basicWithoutWwwAuthenticate(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("basic-without-www-authenticate") { reference in
            { request in
                var response = reference(request)
                if request.path == "/oauth/token", response.status == 401 {
                    response.status = 400
                    response.headers.fields.removeAll { $0.name == "WWW-Authenticate" }
                }
                return response
            }
        }
    }

    static let variants: [Behaviour] = [
        Behaviour("throttle-by-delay") { reference in
            { request in
                // Where the reference would refuse with 429, this server answers 401 as always, but only after a delay.
                let response = reference(request)
                guard request.path == "/oauth/token", response.status == 429 else { return response }
                Thread.sleep(forTimeInterval: 1.5)
                return HTTPResponse(
                    status: 401, headers: HTTPHeaders([("Content-Type", "application/json"), ("Cache-Control", "no-store")]),
                    body: Array(#"{"error":"invalid_client"}"#.utf8))
            }
        },
        Behaviour("rotating-refresh-with-grace", wrap: RotatingRefresh.wrap(grace: true)),
        Behaviour("s256-only") { reference in
            { request in
                guard request.path == "/oauth/authorize", let query = request.query, query.contains("code_challenge_method=plain"),
                    reference(request).status == 302
                else { return reference(request) }
                return redirect(request, query: "error=invalid_request&error_description=Only%20S256%20is%20supported")
            }
        },
        Behaviour("pkce-not-required") { reference in
            { request in
                // A method without a challenge: the method is ignored, as a server that does not require PKCE may.
                guard request.path == "/oauth/authorize", let query = request.query, query.contains("code_challenge_method="),
                    !query.contains("code_challenge=")
                else { return reference(request) }
                var plain = request
                plain.target =
                    "/oauth/authorize?" + query.split(separator: "&").filter { !$0.hasPrefix("code_challenge_method=") }.joined(separator: "&")
                return reference(plain)
            }
        },
        Behaviour("refresh-ignores-extra-scope") { reference in
            { request in
                // A refresh's scope parameter is ignored: the original grant is issued, and stated.
                let body = String(decoding: request.body, as: UTF8.self)
                guard request.path == "/oauth/token", body.contains("grant_type=refresh_token") else { return reference(request) }
                return reference(request.withoutFormParameter("scope"))
            }
        },
        Behaviour("token-get-405") { reference in
            { request in
                guard request.path == "/oauth/token", request.method == "GET" else { return reference(request) }
                return HTTPResponse(
                    status: 405, headers: HTTPHeaders([("Content-Type", "text/html"), ("Allow", "POST")]),
                    body: Array("<html><body><h1>405 Method Not Allowed</h1></body></html>".utf8))
            }
        },
        Behaviour("unauthorized-client-for-token") { reference in
            { request in
                var response = reference(request)
                guard request.path == "/oauth/authorize", let location = response.headers["Location"],
                    location.contains("error=unsupported_response_type")
                else { return response }
                response.headers.fields.removeAll { $0.name == "Location" }
                response.headers.append(
                    "Location", location.replacingOccurrences(of: "error=unsupported_response_type", with: "error=unauthorized_client"))
                return response
            }
        },
        Behaviour("downgrade-invalid-request") { reference in
            let challenged = CodeSet()
            return { request in
                let response = reference(request)
                if request.path == "/oauth/authorize", request.query?.contains("code_challenge=") == true,
                    let code = response.headers["Location"].flatMap(parameter("code"))
                {
                    challenged.insert(code)
                }
                guard request.path == "/oauth/token" else { return response }
                let body = String(decoding: request.body, as: UTF8.self)
                guard body.contains("code_verifier="), let code = parameter("code")(body), !challenged.contains(code),
                    body.contains("grant_type=authorization_code")
                else { return response }
                return HTTPResponse(
                    status: 400, headers: HTTPHeaders([("Content-Type", "application/json"), ("Cache-Control", "no-store")]),
                    body: Array(#"{"error":"invalid_request","error_description":"no challenge was bound"}"#.utf8))
            }
        },
        Behaviour("error-page-by-redirect") { reference in
            { request in
                if request.path == "/oauth/error" {
                    return HTTPResponse(
                        status: 400, headers: HTTPHeaders([("Content-Type", "text/html"), ("X-Frame-Options", "DENY")]),
                        body: Array("<html><body>The request was invalid.</body></html>".utf8))
                }
                let response = reference(request)
                guard request.path == "/oauth/authorize", response.status == 400 else { return response }
                return HTTPResponse(status: 302, headers: HTTPHeaders([("Location", "http://\(request.headers["Host"] ?? "")/oauth/error?reason=1")]))
            }
        },
        Behaviour("sign-in-by-redirect") { reference in
            { request in
                let response = reference(request)
                guard request.path == "/oauth/authorize", request.headers["Cookie"] == nil, response.status == 200 else { return response }
                return HTTPResponse(
                    status: 302,
                    headers: HTTPHeaders([
                        ("Location", "http://\(request.headers["Host"] ?? "")/login?return_to=%2Foauth%2Fauthorize"), ("X-Frame-Options", "DENY"),
                        ("Strict-Transport-Security", ReferenceServer.strictTransportSecurity),
                    ]))
            }
        },
    ]

    /// The same request's redirect URI and state, with `query` in place of what the reference would answer.
    private static func redirect(_ request: HTTPRequest, query: String) -> HTTPResponse {
        let pairs = (request.query ?? "").split(separator: "&")
        let redirectURI = pairs.first { $0.hasPrefix("redirect_uri=") }.flatMap { String($0.dropFirst(13)).removingPercentEncoding } ?? ""
        let state = pairs.first { $0.hasPrefix("state=") }.map { "&" + $0 } ?? ""
        return HTTPResponse(status: 302, headers: HTTPHeaders([("Location", redirectURI + "?" + query + state)]))
    }

    /// Reads one parameter's raw value from a query or form body (or a URL).
    private static func parameter(_ name: String) -> @Sendable (String) -> String? {
        { text in
            let query = text.split(separator: "?", maxSplits: 1).last.map(String.init) ?? text
            return query.split(separator: "&").first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
        }
    }
}
