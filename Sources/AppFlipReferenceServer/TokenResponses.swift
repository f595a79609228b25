import AppFlipHTTP
import AppFlipReference
import Foundation

/// JSON answers of the token and revocation endpoints, with the headers RFC 6749 §5.1 requires.
enum TokenResponses {
    static var headers: HTTPHeaders {
        HTTPHeaders([("Content-Type", "application/json;charset=UTF-8"), ("Cache-Control", "no-store"), ("Pragma", "no-cache")])
    }

    static func json(_ status: Int, _ object: [String: Any]) -> HTTPResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return HTTPResponse(status: status, headers: headers, body: [UInt8](data))
    }

    static func error(_ status: Int, _ code: String, _ description: String) -> HTTPResponse {
        json(status, ["error": code, "error_description": description])
    }
}

/// Form decoding shared by the reference server's pieces.
enum AppFlipReferenceDecoding {
    static func decode(_ text: Substring) -> String? {
        QueryCodec.decode(text).flatMap { String(validating: $0, as: UTF8.self) }
    }
}
