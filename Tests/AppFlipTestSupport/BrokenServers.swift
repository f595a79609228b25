import AppFlipBase
import AppFlipHTTP
import Foundation

/// The reference server with exactly one defect each, made by wrapping its request handler.
package enum BrokenServers {
    package struct Defect: Sendable, CustomStringConvertible {
        package var name: String
        /// The requirement a run against this server must report as failed (as warned, for a SHOULD).
        package var requirement: String
        /// The defect breaks a SHOULD: the run warns under `requirement` and stays conformant.
        package var warnsOnly = false
        package var wrap: @Sendable (@escaping HTTPServer.Handler) -> HTTPServer.Handler
        package var description: String { name }
    }

    package static let all: [Defect] = [
        Defect(name: "narrowed-scope-unreported", requirement: "TOK-RESP-005") { reference in
            { request in
                // Never says which scope it granted, even when it granted less than was asked.
                let response = reference(request)
                guard request.path == "/oauth/token" else { return response }
                return response.editingJSON { $0.removeValue(forKey: "scope") }
            }
        },
        Defect(name: "iss-advertised-not-sent", requirement: "AF-AUTHZ-025") { reference in
            { request in
                // The metadata advertises iss, but the authorization responses leave it out.
                var response = reference(request)
                guard request.path == "/oauth/authorize", let location = response.headers["Location"] else { return response }
                let kept = location.split(separator: "&").filter { !$0.hasPrefix("iss=") }.joined(separator: "&")
                response.headers.fields.removeAll { $0.name == "Location" }
                response.headers.append("Location", kept)
                return response
            }
        },
        Defect(name: "native-refresh-not-rotated", requirement: "TOK-REF-006") { reference in
            { request in
                // Answers a public client's bare refresh without rotating: the refresh token is neither rotated nor bound.
                let response = reference(request)
                let body = String(decoding: request.body, as: UTF8.self)
                guard request.path == "/oauth/token", body.contains("grant_type=refresh_token"), body.contains("client_id=native-app") else {
                    return response
                }
                return response.editingJSON { $0.removeValue(forKey: "refresh_token") }
            }
        },
        Defect(name: "native-fixed-port", requirement: "NAT-AS-001") { reference in
            { request in
                // Accepts the native client's loopback URI only on the registered (default) port.
                guard request.path == "/oauth/authorize", let query = request.query, query.contains("client_id=native-app"),
                    query.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A")
                else { return reference(request) }
                return HTTPResponse(
                    status: 400, headers: HTTPHeaders([("Content-Type", "text/html"), ("X-Frame-Options", "DENY")]),
                    body: Array("<p>redirect_uri mismatch</p>".utf8))
            }
        },
        Defect(name: "native-prefix-match", requirement: "NAT-AS-002") { reference in
            { request in
                // Matches the native client's redirect URI by prefix, so a longer path gets the code.
                guard request.path == "/oauth/authorize", let query = request.query, query.contains("client_id=native-app"),
                    let pair = query.split(separator: "&").first(where: { $0.hasPrefix("redirect_uri=") }),
                    let sent = String(pair.dropFirst(13)).removingPercentEncoding, sent.hasPrefix("http://127.0.0.1:51004/callback"),
                    sent != "http://127.0.0.1:51004/callback"
                else { return reference(request) }
                return HTTPResponse(status: 302, headers: HTTPHeaders([("Location", sent + "?code=prefix-code")]))
            }
        },
        Defect(name: "native-secret-required", requirement: "NAT-AS-004") { reference in
            { request in
                // Treats the native client as confidential: no secret, no token.
                let body = String(decoding: request.body, as: UTF8.self)
                guard request.path == "/oauth/token", body.contains("client_id=native-app"), !body.contains("client_secret=") else {
                    return reference(request)
                }
                return HTTPResponse(
                    status: 401, headers: HTTPHeaders([("Content-Type", "application/json")]), body: Array(#"{"error":"invalid_client"}"#.utf8))
            }
        },
        Defect(name: "counter-access-tokens", requirement: "TOK-RESP-004") { reference in
            let aliases = TokenAliases()
            return { request in
                // Hands out "at-1", "at-2", …: all different, all guessable. The API and revocation see the real ones.
                var forwarded = request
                if let bearer = request.headers["Authorization"], bearer.hasPrefix("Bearer at-"), let real = aliases.real(String(bearer.dropFirst(7)))
                {
                    forwarded.headers.fields.removeAll { $0.name == "Authorization" }
                    forwarded.headers.append("Authorization", "Bearer " + real)
                }
                let response = reference(forwarded)
                guard request.path == "/oauth/token", let real = response.jsonString("access_token") else { return response }
                let alias = aliases.alias(for: real)
                return response.editingJSON { $0["access_token"] = alias }
            }
        },
        Defect(name: "api-refuses-tokens", requirement: "TOK-RESP-006") { reference in
            { request in
                // The API wants a token type the token endpoint never issues.
                guard request.path == "/api/userinfo" else { return reference(request) }
                return HTTPResponse(status: 401, headers: HTTPHeaders([("WWW-Authenticate", "Bearer error=\"invalid_token\"")]))
            }
        },
        Defect(name: "revoke-trusts-hint", requirement: "TOK-REV-004") { reference in
            { request in
                // Looks only among access tokens when the hint says so: a refresh token with a wrong hint survives.
                let body = String(decoding: request.body, as: UTF8.self)
                if request.path == "/oauth/revoke", body.contains("token_type_hint=access_token"), body.contains("token=rt-") {
                    return HTTPResponse(status: 200, headers: HTTPHeaders([("Cache-Control", "no-store")]))
                }
                return reference(request)
            }
        },
        Defect(name: "revoke-any-client", requirement: "TOK-REV-007") { reference in
            { request in
                // Revokes whatever token it is given, whoever asks: forwards the second client's request as Google's.
                let body = String(decoding: request.body, as: UTF8.self)
                guard request.path == "/oauth/revoke", body.contains("client_id=other-client") else { return reference(request) }
                var forwarded = request
                forwarded.body = Array(
                    body.replacingOccurrences(of: "client_id=other-client", with: "client_id=\(ReferenceClient.id)")
                        .replacingOccurrences(of: "client_secret=other-client-secret", with: "client_secret=\(ReferenceClient.secret)").utf8)
                return reference(forwarded)
            }
        },
        Defect(name: "rotation-without-grace", requirement: "TOK-REF-005", wrap: RotatingRefresh.wrap(grace: false)),
        Defect(name: "redirect-path-any-case", requirement: "AF-AUTHZ-005") { reference in
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
        },
        Defect(name: "client-id-any-case", requirement: "AF-AUTHZ-003") { reference in
            { request in
                // Finds the client without regard to case (a case-insensitive collation): GOOGLE-CLIENT is taken as Google's.
                guard request.path == "/oauth/authorize", let query = request.query else { return reference(request) }
                let pairs = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
                    guard pair.hasPrefix("client_id="), let value = String(pair.dropFirst("client_id=".count)).removingPercentEncoding,
                        value != ReferenceClient.id, value.lowercased() == ReferenceClient.id.lowercased()
                    else { return String(pair) }
                    return "client_id=" + ReferenceClient.id
                }
                var forwarded = request
                forwarded.target = String(request.path) + "?" + pairs.joined(separator: "&")
                return reference(forwarded)
            }
        },
        Defect(name: "refresh-any-client", requirement: "TOK-REF-003") { reference in
            { request in
                // Lets any authenticated client refresh any token: the second client's refresh is answered as Google's.
                let body = String(decoding: request.body, as: UTF8.self)
                guard request.path == "/oauth/token", body.contains("grant_type=refresh_token"), body.contains("client_id=other-client") else {
                    return reference(request)
                }
                return HTTPResponse(
                    status: 200, headers: HTTPHeaders([("Content-Type", "application/json"), ("Cache-Control", "no-store")]),
                    body: Array(#"{"access_token":"at-stolen","token_type":"Bearer","expires_in":3600}"#.utf8))
            }
        },
        Defect(name: "refresh-widens-scope", requirement: "TOK-REF-004") { reference in
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
        },
        Defect(name: "any-redirect-uri", requirement: "AF-AUTHZ-005") { reference in
            { request in
                // Authorizes against the registered URI whatever was sent, then redirects to what was sent.
                guard request.path == "/oauth/authorize", let query = request.query else { return reference(request) }
                var sent: String?
                let pairs = query.split(separator: "&").map { pair -> String in
                    guard pair.hasPrefix("redirect_uri=") else { return String(pair) }
                    sent = String(pair.dropFirst("redirect_uri=".count)).removingPercentEncoding
                    return "redirect_uri=https%3A%2F%2Foauth-redirect.googleusercontent.com%2Fr%2Freference-project"
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
        },
        Defect(name: "missing-challenge-wrong-error", requirement: "AF-AUTHZ-016") { reference in
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
        },
        Defect(name: "replay-keeps-tokens", requirement: "TOK-CODE-004-S", warnsOnly: true) { reference in
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
        },
        Defect(name: "redirects-unknown-client", requirement: "AF-AUTHZ-003") { reference in
            { request in
                let response = reference(request)
                guard request.path == "/oauth/authorize", response.status == 400,
                    let redirect = request.query?.split(separator: "&").first(where: { $0.hasPrefix("redirect_uri=") })
                else { return response }
                let target = String(redirect.dropFirst("redirect_uri=".count)).removingPercentEncoding ?? ""
                return HTTPResponse(status: 302, headers: HTTPHeaders([("Location", target + "?error=unauthorized_client")]))
            }
        },
        Defect(name: "reusable-codes", requirement: "TOK-CODE-004") { reference in
            let cache = ResponseCache()
            return { request in
                guard request.path == "/oauth/token" else { return reference(request) }
                let key = String(decoding: request.body, as: UTF8.self)
                if let cached = cache.get(key) { return cached }
                let response = reference(request)
                if response.status == 200 { cache.set(key, response) }
                return response
            }
        },
        Defect(name: "pkce-not-verified", requirement: "TOK-PKCE-001") { reference in
            { request in
                // Drops PKCE on the way in, so any verifier (or none) is accepted.
                var forwarded = request
                if request.path == "/oauth/authorize", let query = request.query {
                    forwarded.target =
                        "/oauth/authorize?" + query.split(separator: "&").filter { !$0.hasPrefix("code_challenge") }.joined(separator: "&")
                }
                if request.path == "/oauth/token" {
                    let body = String(decoding: request.body, as: UTF8.self)
                    forwarded.body = Array(body.split(separator: "&").filter { !$0.hasPrefix("code_verifier=") }.joined(separator: "&").utf8)
                }
                return reference(forwarded)
            }
        },
        Defect(name: "no-no-store", requirement: "TOK-GEN-007") { reference in
            { request in
                var response = reference(request)
                if request.path == "/oauth/token" { response.headers.fields.removeAll { $0.name == "Cache-Control" || $0.name == "Pragma" } }
                return response
            }
        },
        Defect(name: "revoke-unknown-400", requirement: "TOK-REV-003") { reference in
            { request in
                let body = String(decoding: request.body, as: UTF8.self)
                if request.path == "/oauth/revoke", !body.contains("token=at-"), !body.contains("token=rt-"), body.contains("token=") {
                    return HTTPResponse(
                        status: 400, headers: HTTPHeaders([("Content-Type", "application/json")]),
                        body: Array(#"{"error":"invalid_request"}"#.utf8))
                }
                return reference(request)
            }
        },
        Defect(name: "framable-pages", requirement: "AF-AUTHZ-021") { reference in
            { request in
                var response = reference(request)
                response.headers.fields.removeAll { $0.name == "X-Frame-Options" || $0.name == "Content-Security-Policy" }
                return response
            }
        },
        Defect(name: "basic-without-www-authenticate", requirement: "TOK-GEN-005") { reference in
            { request in
                var response = reference(request)
                if response.status == 401 {
                    response.status = 400
                    response.headers.fields.removeAll { $0.name == "WWW-Authenticate" }
                }
                return response
            }
        },
    ]
}

/// A thread-safe map from request body to response.
final class ResponseCache: @unchecked Sendable {
    private let entries = Locked<[String: HTTPResponse]>([:])

    func get(_ key: String) -> HTTPResponse? { entries.withLock { $0[key] } }
    func set(_ key: String, _ value: HTTPResponse) { entries.withLock { $0[key] = value } }
}

/// The client the HTTP profile tests configure at the reference server.
package enum ReferenceClient {
    package static let id = SuiteRun.configuration.clientID
    package static let secret = "test-secret-value"
}

/// Short aliases for real tokens, for a server that hands out guessable ones.
final class TokenAliases: @unchecked Sendable {
    private let reals = Locked<[String: String]>([:])

    func alias(for real: String) -> String {
        reals.withLock { reals in
            let alias = "at-\(reals.count + 1)"
            reals[alias] = real
            return alias
        }
    }

    func real(_ alias: String) -> String? { reals.withLock { $0[alias] } }
}
