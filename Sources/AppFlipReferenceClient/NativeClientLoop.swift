import Foundation

/// Runs the reference native client behind the native-client adapter contract: one JSON command per stdin line,
/// one JSON answer per stdout line, echoing the command's `id`. State lives for the process (persistent mode).
package enum NativeClientLoop {
    package static func serve(_ app: NativeClientApp, output: FileHandle = .standardOutput, log: FileHandle = .standardError) -> Int32 {
        while let line = readLine(strippingNewline: true) {
            guard !line.isEmpty else { continue }
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let id = object["id"] as? String
            else {
                try? log.write(
                    contentsOf: Data("appflip-reference native-client: ignoring a line that is not a JSON object with a string 'id'\n".utf8))
                continue
            }
            var reply = app.handle(object)
            reply["id"] = id
            guard let data = try? JSONSerialization.data(withJSONObject: reply, options: [.sortedKeys]) else { continue }
            do { try output.write(contentsOf: data + Data("\n".utf8)) } catch { return 0 }
        }
        return 0
    }
}
