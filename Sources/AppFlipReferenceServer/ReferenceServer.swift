import AppFlipHTTP
import AppFlipReference
import Foundation

/// The reference handler served over HTTP: `POST /link-handler` takes the adapter contract's JSON request and
/// answers its JSON answer. Everything else is 404.
public enum ReferenceServer {
    public static let linkHandlerPath = "/link-handler"

    public static func handler(clientID: String) -> HTTPServer.Handler {
        let linkHandler = LinkHandler(clientID: clientID)
        return { request in
            guard request.path == linkHandlerPath else {
                return HTTPResponse(status: 404, headers: HTTPHeaders([("Content-Type", "text/plain; charset=utf-8")]),
                                    body: Array("not found\n".utf8))
            }
            guard request.method == "POST" else {
                return HTTPResponse(status: 405, headers: HTTPHeaders([("Allow", "POST")]))
            }
            guard let answer = AdapterLoop.answer(to: String(decoding: request.body, as: UTF8.self), linkHandler) else {
                return HTTPResponse(status: 400, headers: HTTPHeaders([("Content-Type", "text/plain; charset=utf-8")]),
                                    body: Array("expected a JSON object with string id, link and scenario\n".utf8))
            }
            return HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/json"), ("Cache-Control", "no-store")]),
                                body: [UInt8](answer))
        }
    }
}
