import Foundation

/// A link handler behind the JSON Lines adapter contract: `{"id", "link", "scenario"}` in, `{"id", "action", "url",
/// "universal_links_only"}` out.
extension AdapterLoop {
    /// Serves link requests from standard input until it closes. Returns the process exit code.
    package static func serve(_ handler: LinkHandler, output: FileHandle = .standardOutput, log: FileHandle = .standardError) -> Int32 {
        serve(output: output, log: log, ignoring: "a JSON object with string 'id', 'link' and 'scenario'") { answer(to: $0, handler) }
    }

    /// The answer line (without newline) for one request line, or nil when the request is malformed.
    package static func answer(to line: String, _ handler: LinkHandler) -> Data? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let id = object["id"] as? String, let link = object["link"] as? String,
            let scenarioName = object["scenario"] as? String
        else { return nil }
        let scenario = LinkHandler.Scenario(rawValue: scenarioName) ?? .consent
        var reply: [String: Any] = ["id": id]
        switch handler.handle(link: link, scenario: scenario) {
        case .decline:
            reply["action"] = "decline"
        case .open(let url, let universalLinksOnly):
            reply["action"] = "open"
            reply["url"] = url
            reply["universal_links_only"] = universalLinksOnly
        }
        return try? JSONSerialization.data(withJSONObject: reply, options: [.sortedKeys])
    }
}
