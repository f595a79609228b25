import Foundation

/// Runs a link handler behind the JSON Lines adapter contract: one request per stdin line, one answer per stdout line.
///
/// Works in both modes: one-shot (one request, then end of input) and persistent (requests until end of input).
package enum AdapterLoop {
    /// Serves requests from standard input until it closes. Returns the process exit code.
    package static func serve(_ handler: LinkHandler, input: FileHandle = .standardInput, output: FileHandle = .standardOutput,
                             log: FileHandle = .standardError) -> Int32 {
        while let line = readLine(strippingNewline: true) {
            guard !line.isEmpty else { continue }
            guard let answer = answer(to: line, handler) else {
                try? log.write(contentsOf: Data("appflip-reference: ignoring a request that is not a JSON object with string 'id', 'link' and 'scenario'\n".utf8))
                continue
            }
            // When the suite has gone away there is nobody left to answer: stop quietly.
            do { try output.write(contentsOf: answer + Data("\n".utf8)) } catch { return 0 }
        }
        return 0
    }

    /// The answer line (without newline) for one request line, or nil when the request is malformed.
    package static func answer(to line: String, _ handler: LinkHandler) -> Data? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let id = object["id"] as? String, let link = object["link"] as? String,
              let scenarioName = object["scenario"] as? String else { return nil }
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
