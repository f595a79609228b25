import Foundation

/// An Android activity behind the Android adapter contract: one request per stdin line (`{"id", "intent": {"action",
/// "package", "extras"}, "caller", "scenario"}`), one answer per stdout line (`{"id", "result_code", "data",
/// "finished"}`).
extension AdapterLoop {
    /// Serves intent requests from standard input until it closes. Returns the process exit code.
    package static func serve(_ activity: AndroidActivity, output: FileHandle = .standardOutput, log: FileHandle = .standardError) -> Int32 {
        serve(output: output, log: log, ignoring: "an Android adapter request") { answer(to: $0, activity) }
    }

    /// One request as the activity sees it.
    package struct IntentRequest {
        package var id: String
        package var extras: [String: AndroidActivity.Extra]
        package var caller: AndroidActivity.Caller?
        package var scenario: AndroidActivity.Scenario
    }

    /// The answer line (without newline) for one request line, or nil when the request is malformed.
    package static func answer(to line: String, _ activity: AndroidActivity) -> Data? {
        guard let request = intentRequest(from: line) else { return nil }
        return answer(id: request.id, activity.handle(extras: request.extras, caller: request.caller, scenario: request.scenario))
    }

    /// Reads one request line, or nil when it is not an Android adapter request.
    package static func intentRequest(from line: String) -> IntentRequest? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let id = object["id"] as? String, let intent = object["intent"] as? [String: Any],
            let scenarioName = object["scenario"] as? String
        else { return nil }
        var extras: [String: AndroidActivity.Extra] = [:]
        for (name, value) in intent["extras"] as? [String: Any] ?? [:] {
            extras[name] = read(value)
        }
        var caller: AndroidActivity.Caller?
        if let calling = object["caller"] as? [String: Any], let package = calling["package"] as? String,
            let signature = calling["signature_sha256"] as? String
        {
            caller = AndroidActivity.Caller(package: package, signature: signature)
        }
        return IntentRequest(id: id, extras: extras, caller: caller, scenario: AndroidActivity.Scenario(rawValue: scenarioName) ?? .consent)
    }

    /// The answer line (without newline) for a result.
    package static func answer(id: String, _ result: AndroidActivity.Result) -> Data? {
        var reply: [String: Any] = ["id": id, "result_code": result.code, "finished": result.finished]
        if let put = result.extras {
            var written: [String: Any] = [:]
            for (name, value) in put { written[name] = write(value) }
            reply["data"] = ["extras": written]
        } else {
            reply["data"] = NSNull()
        }
        return try? JSONSerialization.data(withJSONObject: reply, options: [.sortedKeys])
    }

    private static func read(_ value: Any) -> AndroidActivity.Extra {
        guard let typed = value as? [String: Any], let type = typed["type"] as? String else { return .unread(type: "?") }
        switch type {
        case "String": return (typed["value"] as? String).map { .string($0) } ?? .unread(type: type)
        case "String[]": return (typed["value"] as? [String]).map { .strings($0) } ?? .unread(type: type)
        case "int": return (typed["value"] as? Int).map { .int($0) } ?? .unread(type: type)
        default: return .unread(type: type)
        }
    }

    private static func write(_ value: AndroidActivity.Extra) -> [String: Any] {
        switch value {
        case .string(let text): ["type": "String", "value": text]
        case .strings(let texts): ["type": "String[]", "value": texts]
        case .int(let number): ["type": "int", "value": number]
        case .unread(let type): ["type": type, "value": NSNull()]
        }
    }
}
