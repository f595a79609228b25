import AppFlipHTTP
import Foundation

/// What the broken servers edit in a request or a response, in one place: raw `name=value` pieces of a query or a
/// form, and the `Location` of a redirect.
extension HTTPRequest {
    /// The query's `name=value` pieces, as sent.
    var queryPieces: [String] { (query ?? "").split(separator: "&").map(String.init) }
    /// The form body's `name=value` pieces, as sent.
    var formPieces: [String] { String(decoding: body, as: UTF8.self).split(separator: "&").map(String.init) }

    /// The request with these query pieces.
    func with(query pieces: [String]) -> HTTPRequest {
        var edited = self
        edited.target = String(path) + (pieces.isEmpty ? "" : "?" + pieces.joined(separator: "&"))
        return edited
    }

    /// The request with this form body.
    func with(form pieces: [String]) -> HTTPRequest {
        var edited = self
        edited.body = Array(pieces.joined(separator: "&").utf8)
        edited.headers.fields.removeAll { $0.name.lowercased() == "content-length" }
        return edited
    }
}

/// The once-decoded value of the first `name=` piece among `pieces` (`+` read as a space).
func pieceValue(_ name: String, in pieces: [String]) -> String? {
    pieces.first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
        .map { $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? $0 }
}

extension HTTPResponse {
    /// The response with its `Location` edited; unchanged without one.
    func editingLocation(_ edit: (String) -> String) -> HTTPResponse {
        guard let location = headers["Location"] else { return self }
        var edited = self
        edited.headers.fields.removeAll { $0.name == "Location" }
        edited.headers.append("Location", edit(location))
        return edited
    }

    /// The `Location` query's pieces (empty without a Location).
    var locationPieces: [String] {
        guard let location = headers["Location"], let mark = location.firstIndex(of: "?") else { return [] }
        return location[location.index(after: mark)...].split(separator: "&").map(String.init)
    }

    /// A JSON error answer of the token endpoint's shape.
    static func tokenError(_ status: Int, _ error: String) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: HTTPHeaders([("Content-Type", "application/json"), ("Cache-Control", "no-store")]),
            body: Array(#"{"error":"\#(error)"}"#.utf8))
    }
}

/// `location` with every `name=…` piece of its query left out.
func removingParameter(_ name: String, from location: String) -> String {
    guard let mark = location.firstIndex(of: "?") else { return location }
    let kept = location[location.index(after: mark)...].split(separator: "&").filter { !$0.hasPrefix(name + "=") }
    return String(location[..<mark]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
}
