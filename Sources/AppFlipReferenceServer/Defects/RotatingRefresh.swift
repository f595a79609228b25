import AppFlipBase
import AppFlipHTTP
import Foundation

/// Wraps the reference server's token endpoint with refresh-token rotation: a successful refresh with an original
/// token returns a new refresh token. With `grace`, the old token keeps working until the new one is used (Google's
/// rule); without it, the old token dies at once (the defect Google's rule forbids).
package enum RotatingRefresh {
    package static func wrap(grace: Bool) -> @Sendable (@escaping HTTPServer.Handler) -> HTTPServer.Handler {
        { reference in
            let book = RotationBook()
            return { request in
                let body = String(decoding: request.body, as: UTF8.self)
                guard request.path == "/oauth/token", body.contains("grant_type=refresh_token"),
                    let presented = body.split(separator: "&").first(where: { $0.hasPrefix("refresh_token=") })
                        .map({ String($0.dropFirst("refresh_token=".count)) })
                else { return reference(request) }
                if book.isDead(presented) {
                    return HTTPResponse(
                        status: 400, headers: HTTPHeaders([("Content-Type", "application/json"), ("Cache-Control", "no-store")]),
                        body: Array(#"{"error":"invalid_grant"}"#.utf8))
                }
                if let original = book.use(presented) {
                    // The new token stands for the original one at the reference; using it retires the original.
                    var forwarded = request
                    forwarded.body = Array(body.replacingOccurrences(of: "refresh_token=" + presented, with: "refresh_token=" + original).utf8)
                    return reference(forwarded)
                }
                let response = reference(request)
                guard response.status == 200, response.jsonString("access_token") != nil else { return response }
                let rotated = "rot-" + UUID().uuidString
                book.rotate(presented, to: rotated, grace: grace)
                return response.editingJSON { $0["refresh_token"] = rotated }
            }
        }
    }
}

/// Which rotated token stands for which original, and which originals are retired.
final class RotationBook: Sendable {
    /// Each rotated token's original, and the originals retired.
    private let book = Locked((originals: [String: String](), dead: Set<String>()))

    func rotate(_ original: String, to rotated: String, grace: Bool) {
        book.withLock { book in
            book.originals[rotated] = original
            if !grace { book.dead.insert(original) }
        }
    }

    /// The original a rotated token stands for, retiring the original; nil for a token that was not rotated.
    func use(_ rotated: String) -> String? {
        book.withLock { book in
            guard let original = book.originals[rotated] else { return nil }
            book.dead.insert(original)
            return original
        }
    }

    func isDead(_ token: String) -> Bool { book.withLock { $0.dead.contains(token) } }
}
