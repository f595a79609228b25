import AppFlipBase
import AppFlipDigest
import AppFlipHTTP
import Foundation

extension ServerDefectBehaviours {
    /// The token, revocation and API endpoints' defects, each one answer a real server gets wrong.
    static func tokenDefects(_ configuration: ReferenceServerConfiguration) -> [Behaviour] {
        [
            tokenTakesGet,
            tokenFirstOfRepeated,
            twoClientAuthentications,
            basicAuthRefused,
            redirectUriUnchecked,
            unknownCodeInvalidRequest,
            unknownGrantInvalidRequest,
            verifierOptional,
            verifierWithoutChallenge,
            tokenResponseWithoutExpiresIn,
            tokenTypeMac,
            errorsTypedHtml,
            badRefreshInvalidRequest,
            revokeAnswers204,
            refreshRevocationIgnored,
            revocationDelayed,
            codeAnyClient,
            sameUserForEveryone,
            shortFlipCodes,
            associationForAnotherApp,
        ].map { $0(configuration) }
    }

    /// Whether a request is to the token endpoint.
    static func isToken(_ request: HTTPRequest) -> Bool { request.path == "/oauth/token" }

    /// `token-takes-get`: see its entry in the defect catalog (`ServerDefects`).
    static func tokenTakesGet(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("token-takes-get") { reference in
            { request in
                // Answers a GET whose query holds the form as if it were the POST.
                guard isToken(request), request.method == "GET", !request.body.isEmpty || !(request.query ?? "").isEmpty else {
                    return reference(request)
                }
                var post = request.with(query: [])
                post.method = "POST"
                post.body = Array((request.formPieces + request.queryPieces).joined(separator: "&").utf8)
                post.headers.fields.removeAll { $0.name.lowercased() == "content-type" }
                post.headers.append("Content-Type", "application/x-www-form-urlencoded")
                return reference(post)
            }
        }
    }

    /// `token-first-of-repeated`: see its entry in the defect catalog (`ServerDefects`).
    static func tokenFirstOfRepeated(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("token-first-of-repeated") { reference in
            { request in
                // Takes the first copy of a repeated form parameter instead of refusing the request.
                guard isToken(request) else { return reference(request) }
                var seen = Set<String>()
                return reference(request.with(form: request.formPieces.filter { seen.insert(String($0.prefix { $0 != "=" })).inserted }))
            }
        }
    }

    /// `two-client-authentications`: see its entry in the defect catalog (`ServerDefects`).
    static func twoClientAuthentications(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("two-client-authentications") { reference in
            { request in
                // Takes a request that authenticates twice (HTTP Basic and client_secret in the body) by its body.
                guard isToken(request) || request.path == "/oauth/revoke", request.headers["Authorization"] != nil,
                    request.formPieces.contains(where: { $0.hasPrefix("client_secret=") })
                else { return reference(request) }
                var forwarded = request
                forwarded.headers.fields.removeAll { $0.name == "Authorization" }
                return reference(forwarded)
            }
        }
    }

    /// `basic-auth-refused`: see its entry in the defect catalog (`ServerDefects`).
    static func basicAuthRefused(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("basic-auth-refused") { reference in
            { request in
                // Supports client_secret_post only: HTTP Basic client authentication fails as a wrong secret would
                // (a request that also sends the secret in the body stays the reference's two-methods refusal).
                guard isToken(request), request.headers["Authorization"]?.lowercased().hasPrefix("basic ") == true,
                    !request.formPieces.contains(where: { $0.hasPrefix("client_secret=") })
                else { return reference(request) }
                var response = TokenResponses.error(401, "invalid_client", "Client authentication failed")
                response.headers.append("WWW-Authenticate", "Basic realm=\"appflip-reference\"")
                return response
            }
        }
    }

    /// `redirect-uri-unchecked`: see its entry in the defect catalog (`ServerDefects`).
    static func redirectUriUnchecked(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("redirect-uri-unchecked") { reference in
            let bound = PairMemory()
            return { request in
                // Never compares the exchange's redirect_uri with the authorization request's.
                if isToken(request), let code = pieceValue("code", in: request.formPieces), let uri = bound.value(for: code) {
                    let pieces = request.formPieces.filter { !$0.hasPrefix("redirect_uri=") } + ["redirect_uri=" + FormEncoding.encode(uri)]
                    return reference(request.with(form: pieces))
                }
                let response = reference(request)
                if request.path == "/oauth/authorize" || request.path == "/oauth/consent",
                    let code = pieceValue("code", in: response.locationPieces), let location = response.headers["Location"]
                {
                    bound.remember(String(location.prefix { $0 != "?" }), for: code)
                }
                return response
            }
        }
    }

    /// `unknown-code-invalid-request`: see its entry in the defect catalog (`ServerDefects`).
    static func unknownCodeInvalidRequest(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("unknown-code-invalid-request") { reference in
            { request in
                // Answers a code it never issued with invalid_request, not invalid_grant (a used, expired or another
                // client's code still gets invalid_grant).
                let response = reference(request)
                guard isToken(request), request.formPieces.contains("grant_type=authorization_code"), response.status == 400,
                    response.jsonString("error_description") == "Unknown code"
                else { return response }
                return .tokenError(400, "invalid_request")
            }
        }
    }

    /// `unknown-grant-invalid-request`: see its entry in the defect catalog (`ServerDefects`).
    static func unknownGrantInvalidRequest(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("unknown-grant-invalid-request") { reference in
            { request in
                // Answers a grant type it does not support with invalid_request, not unsupported_grant_type.
                let response = reference(request)
                guard isToken(request), String(decoding: response.body, as: UTF8.self).contains("unsupported_grant_type") else { return response }
                return .tokenError(400, "invalid_request")
            }
        }
    }

    /// `verifier-optional`: see its entry in the defect catalog (`ServerDefects`).
    static func verifierOptional(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("verifier-optional") { reference in
            let challenges = PairMemory()
            return { request in
                // Checks a verifier when one is sent, and redeems a challenged code without one.
                if request.path == "/oauth/authorize",
                    request.queryPieces.contains("client_id=" + FormEncoding.encode(configuration.clientID)),
                    let challenge = pieceValue("code_challenge", in: request.queryPieces), challenge.utf8.count == 43,
                    challenge.utf8.allSatisfy(AuthorizationEndpoint.isUnreserved),
                    pieceValue("code_challenge_method", in: request.queryPieces) == "S256"
                {
                    let response = reference(request.with(query: request.queryPieces.filter { !$0.hasPrefix("code_challenge") }))
                    if let code = pieceValue("code", in: response.locationPieces) { challenges.remember(challenge, for: code) }
                    return response
                }
                guard isToken(request), let code = pieceValue("code", in: request.formPieces), let challenge = challenges.value(for: code) else {
                    return reference(request)
                }
                if let verifier = pieceValue("code_verifier", in: request.formPieces),
                    !(43...128).contains(verifier.utf8.count) || !verifier.utf8.allSatisfy(AuthorizationEndpoint.isUnreserved)
                        || Base64URL.encode(SHA256.hash(Array(verifier.utf8))) != challenge
                {
                    return .tokenError(400, "invalid_grant")
                }
                return reference(request.with(form: request.formPieces.filter { !$0.hasPrefix("code_verifier=") }))
            }
        }
    }

    /// `verifier-without-challenge`: see its entry in the defect catalog (`ServerDefects`).
    static func verifierWithoutChallenge(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("verifier-without-challenge") { reference in
            let unchallenged = CodeSet()
            return { request in
                // Ignores a verifier sent for a code issued without a challenge (a downgrade it does not see).
                if isToken(request), let code = pieceValue("code", in: request.formPieces), unchallenged.contains(code) {
                    return reference(request.with(form: request.formPieces.filter { !$0.hasPrefix("code_verifier=") }))
                }
                let response = reference(request)
                if request.path == "/oauth/authorize", !request.queryPieces.contains(where: { $0.hasPrefix("code_challenge=") }),
                    let code = pieceValue("code", in: response.locationPieces)
                {
                    unchallenged.insert(code)
                }
                return response
            }
        }
    }

    /// `token-response-without-expires-in`: see its entry in the defect catalog (`ServerDefects`).
    static func tokenResponseWithoutExpiresIn(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("token-response-without-expires-in") { reference in
            { request in
                // Never says how long the access token of a code exchange lives.
                let response = reference(request)
                guard isToken(request), request.formPieces.contains("grant_type=authorization_code"), response.status == 200 else {
                    return response
                }
                return response.editingJSON { $0.removeValue(forKey: "expires_in") }
            }
        }
    }

    /// `token-type-mac`: see its entry in the defect catalog (`ServerDefects`).
    static func tokenTypeMac(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("token-type-mac") { reference in
            { request in
                // Calls a code exchange's access token a MAC token, though its API takes it as Bearer.
                let response = reference(request)
                guard isToken(request), request.formPieces.contains("grant_type=authorization_code"), response.status == 200 else {
                    return response
                }
                return response.editingJSON { $0["token_type"] = "mac" }
            }
        }
    }

    /// `errors-typed-html`: see its entry in the defect catalog (`ServerDefects`).
    static func errorsTypedHtml(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("errors-typed-html") { reference in
            { request in
                // Writes its JSON errors under the framework's default Content-Type, text/html.
                var response = reference(request)
                guard isToken(request), response.status == 400 else { return response }
                response.headers.fields.removeAll { $0.name.lowercased() == "content-type" }
                response.headers.append("Content-Type", "text/html; charset=utf-8")
                return response
            }
        }
    }

    /// `bad-refresh-invalid-request`: see its entry in the defect catalog (`ServerDefects`).
    static func badRefreshInvalidRequest(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("bad-refresh-invalid-request") { reference in
            let issued = CodeSet()
            return { request in
                // Answers a refresh token it never issued with invalid_request, not invalid_grant.
                let response = reference(request)
                if isToken(request), let refresh = response.jsonString("refresh_token") { issued.insert(refresh) }
                guard isToken(request), request.formPieces.contains("grant_type=refresh_token"), response.status == 400,
                    let presented = pieceValue("refresh_token", in: request.formPieces), !issued.contains(presented)
                else { return response }
                return .tokenError(400, "invalid_request")
            }
        }
    }

    /// `revoke-answers-204`: see its entry in the defect catalog (`ServerDefects`).
    static func revokeAnswers204(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("revoke-answers-204") { reference in
            { request in
                // Answers the revocation of a refresh token, sent without a hint, with 204 No Content, not 200.
                var response = reference(request)
                if request.path == "/oauth/revoke", response.status == 200,
                    !request.formPieces.contains(where: { $0.hasPrefix("token_type_hint=") }),
                    pieceValue("token", in: request.formPieces)?.hasPrefix("rt-") == true
                {
                    response.status = 204
                }
                return response
            }
        }
    }

    /// `refresh-revocation-ignored`: see its entry in the defect catalog (`ServerDefects`).
    static func refreshRevocationIgnored(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("refresh-revocation-ignored") { reference in
            { request in
                // Says 200 to the revocation of a refresh token, and keeps it working.
                guard request.path == "/oauth/revoke", let token = pieceValue("token", in: request.formPieces), token.hasPrefix("rt-") else {
                    return reference(request)
                }
                return HTTPResponse(status: 200, headers: HTTPHeaders([("Cache-Control", "no-store")]))
            }
        }
    }

    /// `revocation-delayed`: see its entry in the defect catalog (`ServerDefects`).
    static func revocationDelayed(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("revocation-delayed") { reference in
            { request in
                // Revokes refresh tokens from a queue a worker drains seconds later: the token keeps working meanwhile.
                guard request.path == "/oauth/revoke", !request.formPieces.contains(where: { $0.hasPrefix("token_type_hint=") }),
                    pieceValue("token", in: request.formPieces)?.hasPrefix("rt-") == true
                else { return reference(request) }
                DispatchQueue.global().asyncAfter(deadline: .now() + 4) { _ = reference(request) }
                return HTTPResponse(status: 200, headers: HTTPHeaders([("Cache-Control", "no-store")]))
            }
        }
    }

    /// `code-any-client`: see its entry in the defect catalog (`ServerDefects`).
    static func codeAnyClient(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("code-any-client") { reference in
            { request in
                // Redeems a code for whichever authenticated client presents it: the second client's exchange as Google's.
                guard isToken(request), request.formPieces.contains("grant_type=authorization_code"),
                    request.formPieces.contains("client_id=" + FormEncoding.encode(ReferenceServerConfiguration.secondClientID))
                else { return reference(request) }
                return reference(
                    request.with(
                        form: request.formPieces.map { piece in
                            if piece.hasPrefix("client_id=") { return "client_id=" + FormEncoding.encode(configuration.clientID) }
                            if piece.hasPrefix("client_secret=") { return "client_secret=" + FormEncoding.encode(configuration.clientSecret) }
                            return piece
                        }))
            }
        }
    }

    /// `same-user-for-everyone`: see its entry in the defect catalog (`ServerDefects`).
    static func sameUserForEveryone(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("same-user-for-everyone") { reference in
            { request in
                // Its API answers every token as the first test user's.
                let response = reference(request)
                guard request.path == ReferenceServer.apiPath, response.status == 200 else { return response }
                return response.editingJSON { $0["user"] = "approver" }
            }
        }
    }

    /// `short-flip-codes`: see its entry in the defect catalog (`ServerDefects`).
    static func shortFlipCodes(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("short-flip-codes") { reference in
            let aliases = PairMemory()
            return { request in
                // Mints the codes an app hands Google as 16 hex digits (64 bits), each standing for a real code.
                if isToken(request), let code = pieceValue("code", in: request.formPieces), let real = aliases.value(for: code) {
                    return reference(
                        request.with(form: request.formPieces.map { $0.hasPrefix("code=") ? "code=" + FormEncoding.encode(real) : $0 }))
                }
                var response = reference(request)
                guard request.path == ReferenceServer.mintPath, response.status == 200 else { return response }
                let alias = String(format: "%016llx", UInt64.random(in: 0...UInt64.max))
                aliases.remember(String(decoding: response.body, as: UTF8.self), for: alias)
                response.body = Array(alias.utf8)
                response.headers.fields.removeAll { $0.name.lowercased() == "content-length" }
                return response
            }
        }
    }

    /// `association-for-another-app`: see its entry in the defect catalog (`ServerDefects`).
    static func associationForAnotherApp(_ configuration: ReferenceServerConfiguration) -> Behaviour {
        Behaviour("association-for-another-app") { reference in
            { request in
                // Its site association lists another team's app for the App Flip path.
                let response = reference(request)
                guard request.path == "/.well-known/apple-app-site-association" else { return response }
                let text = String(decoding: response.body, as: UTF8.self).replacingOccurrences(
                    of: configuration.appID, with: "ZZZZZ99999.com.example.other")
                var edited = response
                edited.body = Array(text.utf8)
                return edited
            }
        }
    }
}
