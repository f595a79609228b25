import AppFlipBase
import AppFlipRedaction

extension Observation {
    /// The URL the handler opened, or a redirect's Location; nil when nothing was opened.
    package var openedURL: String? {
        let answer = self.answer
        return answer.action == .open ? answer.url : nil
    }

    /// The parameters of the opened URL's query (empty when nothing was opened).
    package var openedParameters: [QueryParameter] { openedURL.map { URLParts($0).parameters } ?? [] }

    /// A one-line, redacted description: what a report shows as the observation.
    package var summary: String {
        switch self {
        case .link(let answer):
            switch answer.action {
            case .decline: return answer.crash.map { "the app crashed (\($0)): nothing opened" } ?? "declined (opened nothing)"
            case .open: return "opened \(Redaction.redact(url: answer.url ?? ""))"
            }
        case .http(let response):
            var text = "HTTP \(response.status)"
            if let location = response.header("Location") { text += ", Location: \(Redaction.redact(url: location))" }
            if let type = response.header("Content-Type") { text += ", \(type)" }
            return text + ", \(response.body.count) body bytes"
        case .unreachable(let why):
            return "no HTTP answer (\(why))"
        case .handshake(let handshake):
            return "TLS: \(handshake.offer) was answered: \(handshake.answer)"
        case .native(let native):
            return native.summary
        case .activity(let result):
            return result.summary
        }
    }

    /// When the opened URL carries its result in the fragment instead of the query (`#code=…&state=…`, as the implicit
    /// flow would): says so, naming the fragment's parameters, not their values; nil otherwise.
    package var resultInFragment: String? {
        guard let url = openedURL else { return nil }
        let parts = URLParts(url)
        guard let fragment = parts.fragment, !fragment.isEmpty else { return nil }
        let inFragment = URLParts("x:?" + String(fragment)).parameters.compactMap(\.nameText)
        guard inFragment.contains(where: { ["code", "error", "state"].contains($0) }) else { return nil }
        let inQuery = parts.parameters.compactMap(\.nameText)
        guard !inQuery.contains("code"), !inQuery.contains("error") else { return nil }
        // Said the same whatever the result (code or error), so one bug reads as one cause; what the fragment holds follows.
        return "the result is in the URL's fragment, not its query" + (inQuery.isEmpty ? " (the query has no parameters)" : "")
            + "; the fragment's parameters: " + inFragment.joined(separator: ", ")
    }

    /// How a reason names the step of an app the suite drives (the native app, an activity), for a check that does not
    /// judge it; nil for the other kinds, which the checks name themselves.
    package var appStepNoun: String? {
        switch self {
        case .native: NativeObservation.stepNoun
        case .activity: ActivityResult.stepNoun
        case .link, .http, .unreachable, .handshake: nil
        }
    }

    /// How a reason names what such a step gave back.
    package var appResultNoun: String? {
        switch self {
        case .native: NativeObservation.stepNoun
        case .activity: ActivityResult.resultNoun
        case .link, .http, .unreachable, .handshake: nil
        }
    }

    /// What "nothing was opened" means for this kind of observation, for absence checks.
    package var nothingOpenedText: String {
        switch self {
        case .link: "nothing was opened"
        case .http(let response): "HTTP \(response.status), not a redirect"
        case .unreachable, .handshake: "no HTTP answer"
        case .native, .activity: "nothing was opened"
        }
    }
}
