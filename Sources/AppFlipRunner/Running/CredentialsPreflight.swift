import AppFlipBase
import AppFlipHTTP
import AppFlipModel
import Foundation

/// Before the cases run, one request tells whether the token endpoint accepts the configured client credentials:
/// a code exchange with a code that cannot exist. A server that knows the client answers `invalid_grant` (or
/// another error about the code); one that does not answers `invalid_client`. Nothing is changed on the server.
enum CredentialsPreflight {
    /// The problem to report, or nil when the credentials were not rejected (or could not be checked).
    static func problem(_ targets: TargetUnderTest, _ configuration: RunConfiguration, timeout: Double) -> String? {
        guard let url = targets.endpoints[.token], let secret = targets.clientSecret, let (origin, path) = HTTPOrigin.split(url),
            let client = try? HTTPClient(
                origin: origin, network: targets.network, limits: targets.limits,
                timeouts: HTTPClient.Timeouts(connect: min(5, timeout), total: timeout))
        else { return nil }
        defer { client.close() }
        let code = "appflip-preflight-" + GeneratedValues(seed: configuration.seed, caseID: "preflight").nonce
        var form = "grant_type=authorization_code&code=\(FormEncoding.encode(code))&redirect_uri=\(FormEncoding.encode(configuration.webRedirectURI))"
        var headers = HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")])
        if targets.tokenAuthentication == .basic {
            let pair = FormEncoding.encode(configuration.clientID) + ":" + FormEncoding.encode(secret)
            headers.append("Authorization", "Basic " + Data(pair.utf8).base64EncodedString())
        } else {
            form += "&client_id=\(FormEncoding.encode(configuration.clientID))&client_secret=\(FormEncoding.encode(secret))"
        }
        guard let response = try? client.send(HTTPRequest(method: "POST", target: path, headers: headers, body: Array(form.utf8))) else {
            return nil
        }
        let observation = HTTPObservation(
            status: response.status, headers: response.headers.fields.map { ($0.name, $0.value) },
            body: response.body)
        return ConfiguredCredentials.verdict(on: observation) == .rejected ? ConfiguredCredentials.problem : nil
    }
}
