import AppFlipHTTP
import Foundation

extension HTTPResponse {
    /// The response with its JSON object body edited; unchanged when the body is not a JSON object.
    package func editingJSON(_ edit: (inout [String: Any]) -> Void) -> HTTPResponse {
        guard var object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else { return self }
        edit(&object)
        guard let data = try? JSONSerialization.data(withJSONObject: object) else { return self }
        var edited = self
        edited.body = [UInt8](data)
        edited.headers.fields.removeAll { $0.name.lowercased() == "content-length" }
        return edited
    }

    /// One member of a JSON object body, if it is a string.
    package func jsonString(_ member: String) -> String? {
        ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any])?[member] as? String
    }
}

extension HTTPRequest {
    /// The request with every `name=…` piece of its form body left out.
    package func withoutFormParameter(_ name: String) -> HTTPRequest {
        var edited = self
        let pieces = String(decoding: body, as: UTF8.self).split(separator: "&").filter { !$0.hasPrefix(name + "=") }
        edited.body = Array(pieces.joined(separator: "&").utf8)
        return edited
    }
}
