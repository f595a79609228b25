import AppFlipHTTP

/// What the token and revocation endpoints require of every request: a POST with a form body.
enum FormEndpoint {
    /// The answer to a request that is not a form POST.
    struct Rejection: Error {
        var response: HTTPResponse
    }

    /// The form, or the error answer when the request is not a form POST.
    static func form(_ request: HTTPRequest, endpoint: String) -> Result<RequestParameters, Rejection> {
        guard request.method == "POST" else {
            var response = TokenResponses.error(405, "invalid_request", "The \(endpoint) endpoint takes POST")
            response.headers.append("Allow", "POST")
            return .failure(Rejection(response: response))
        }
        guard request.headers["Content-Type"]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else {
            return .failure(Rejection(response: TokenResponses.error(400, "invalid_request", "The body must be application/x-www-form-urlencoded")))
        }
        return .success(RequestParameters(Substring(String(decoding: request.body, as: UTF8.self))))
    }
}
