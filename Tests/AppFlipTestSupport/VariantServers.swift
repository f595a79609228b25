import AppFlipBase
import AppFlipHTTP
import Foundation

/// The reference server with one correct but different design choice each, made by wrapping its handler. Every
/// HTTP case must pass against every variant: the suite accepts every answer the sources allow.
package enum VariantServers {
    package struct Variant: Sendable, CustomStringConvertible {
        package var name: String
        /// What the sources allow, in one sentence.
        package var allowance: String
        package var wrap: @Sendable (@escaping HTTPServer.Handler) -> HTTPServer.Handler
        package var description: String { name }
    }

    package static let all: [Variant] = [
        Variant(
            name: "throttle-by-delay",
            allowance: "RFC 6749 §2.3.1 requires brute-force protection and names no means: a growing delay (a tarpit) is one"
        ) { reference in
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
        Variant(
            name: "rotating-refresh-with-grace",
            allowance: "RFC 6749 §6 lets refresh tokens rotate; Google asks that the old one work until the new one is used",
            wrap: RotatingRefresh.wrap(grace: true)),
        Variant(name: "s256-only", allowance: "RFC 7636 §4.2: plain is optional; §4.4.1: an unsupported method gets invalid_request") { reference in
            { request in
                guard request.path == "/oauth/authorize", let query = request.query, query.contains("code_challenge_method=plain"),
                    reference(request).status == 302
                else { return reference(request) }
                return redirect(request, query: "error=invalid_request&error_description=Only%20S256%20is%20supported")
            }
        },
        Variant(
            name: "pkce-not-required",
            allowance:
                "RFC 7636 §4.4.1 asks for invalid_request on a missing challenge only if the server requires PKCE: one that does not proceeds without it"
        ) { reference in
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
        Variant(
            name: "refresh-ignores-extra-scope",
            allowance: "RFC 6749 §3.3 lets a server ignore part of a requested scope when the response's scope says what was granted"
        ) { reference in
            { request in
                // A refresh's scope parameter is ignored: the original grant is issued, and stated.
                let body = String(decoding: request.body, as: UTF8.self)
                guard request.path == "/oauth/token", body.contains("grant_type=refresh_token") else { return reference(request) }
                return reference(request.withoutFormParameter("scope"))
            }
        },
        Variant(name: "token-get-405", allowance: "RFC 6749 §3.2 requires POST and names no answer for GET: a 405 page refuses it") { reference in
            { request in
                guard request.path == "/oauth/token", request.method == "GET" else { return reference(request) }
                return HTTPResponse(
                    status: 405, headers: HTTPHeaders([("Content-Type", "text/html"), ("Allow", "POST")]),
                    body: Array("<html><body><h1>405 Method Not Allowed</h1></body></html>".utf8))
            }
        },
        Variant(
            name: "unauthorized-client-for-token", allowance: "RFC 6749 §4.1.2.1: unauthorized_client fits a response_type the client may not use"
        ) { reference in
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
        Variant(
            name: "downgrade-invalid-request", allowance: "RFC 9700 §2.1.1 requires refusing a verifier without a challenge, with no error code named"
        ) { reference in
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
        Variant(
            name: "error-page-by-redirect",
            allowance: "RFC 6749 §4.1.2.1 forbids redirecting to the invalid redirect URI, not to the server's own error page"
        ) { reference in
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
        Variant(
            name: "sign-in-by-redirect",
            allowance: "RFC 9700 §4.11.2 asks for sign-in before a redirect to the client; a redirect to the server's own sign-in page is that"
        ) { reference in
            { request in
                let response = reference(request)
                guard request.path == "/oauth/authorize", request.headers["Cookie"] == nil, response.status == 200 else { return response }
                return HTTPResponse(
                    status: 302,
                    headers: HTTPHeaders([
                        ("Location", "http://\(request.headers["Host"] ?? "")/login?return_to=%2Foauth%2Fauthorize"), ("X-Frame-Options", "DENY"),
                    ]))
            }
        },
    ]

    /// A variant for the sign-in pages (the cases above sign users in by headers, so cookies never come into play):
    /// it passes every case when users sign in through the pages.
    package static let cookiesInAnotherStyle = Variant(
        name: "cookies-in-another-style", allowance: "RFC 6265 §5.2 reads attribute names without case; §5.3 lets Max-Age win over an earlier Expires"
    ) { reference in
        { request in
            // Each cookie as another framework writes it: attributes lower-cased and in another order, with an Expires
            // already past (as a server whose clock lags writes it) before the Max-Age that keeps the cookie alive.
            var response = reference(request)
            let cookies = response.headers.values("Set-Cookie")
            guard !cookies.isEmpty else { return response }
            response.headers.fields.removeAll { $0.name == "Set-Cookie" }
            for cookie in cookies {
                let pair = cookie.split(separator: ";", maxSplits: 1).first.map(String.init) ?? cookie
                response.headers.append("Set-Cookie", pair + "; expires=Thu, 01 Jan 1970 00:00:01 GMT; samesite=lax; max-age=3600; httponly; path=/")
            }
            return response
        }
    }

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

/// A thread-safe set of codes.
package final class CodeSet: @unchecked Sendable {
    private let codes = Locked<Set<String>>([])

    package init() {}

    package func insert(_ code: String) { _ = codes.withLock { $0.insert(code) } }
    package func contains(_ code: String) -> Bool { codes.withLock { $0.contains(code) } }
}

/// Answers remembered per key, shared between a server's request threads.
package final class AnswerMemory: @unchecked Sendable {
    private let answers = Locked<[String: HTTPResponse]>([:])

    package init() {}

    package func remember(_ response: HTTPResponse, for key: String) { answers.withLock { $0[key] = response } }
    package func answer(for key: String) -> HTTPResponse? { answers.withLock { $0[key] } }
}
