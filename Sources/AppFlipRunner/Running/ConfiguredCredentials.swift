import AppFlipModel
import Foundation

/// Whether the target accepted the client credentials the configuration gives. When every request that sent them
/// was answered `invalid_client`, the configuration is wrong (a stale secret, another client's ID): that is said
/// once, and the cases it spoiled are errors, not a row of requirement failures.
enum ConfiguredCredentials: Sendable, Hashable {
    case accepted
    case rejected

    /// The message a run with rejected credentials carries.
    static let problem =
        "the token endpoint answered invalid_client to every request that sent the configured client "
        + "credentials: check client_id and the secret in client_secret_env (the cases that needed them could not be judged)"

    /// What one response says about the credentials: a 2xx accepts them, `invalid_client` rejects them; anything
    /// else says nothing about them.
    static func verdict(on response: HTTPObservation) -> ConfiguredCredentials? {
        if (200...299).contains(response.status) { return .accepted }
        guard response.status == 400 || response.status == 401,
            let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any],
            object["error"] as? String == "invalid_client"
        else { return nil }
        return .rejected
    }

    /// When no request accepted the configured credentials and some rejected them, turns the cases that were
    /// rejected into errors carrying the configuration problem.
    static func judge(_ results: inout [CaseResult?], verdicts: [Int: ConfiguredCredentials]) {
        guard !verdicts.values.contains(.accepted), verdicts.values.contains(.rejected) else { return }
        for (index, verdict) in verdicts where verdict == .rejected {
            guard var result = results[index] else { continue }
            result.verdict = .error
            result.message = "configuration problem: " + problem
            result.runFault = .configuration(problem)
            results[index] = result
        }
    }
}
