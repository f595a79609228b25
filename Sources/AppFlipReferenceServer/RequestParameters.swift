import AppFlipHTTP
import AppFlipReference

/// A query or form body parsed the way the reference server reads it: repeats kept, escapes checked.
struct RequestParameters {
    let pairs: [QueryCodec.Pair]

    init(_ text: Substring) {
        pairs = QueryCodec.pairs(text)
    }

    /// Every copy of a parameter; nil entries had a malformed escape.
    func values(_ name: String) -> [[UInt8]?] {
        pairs.filter { $0.name == Array(name.utf8) }.map(\.value)
    }

    /// The one value of a parameter: nil when absent or empty (RFC 6749 §3.1); `.repeated` when sent twice.
    enum Single {
        case missing
        case repeated
        case malformed
        case value(String)
    }

    func single(_ name: String) -> Single {
        let copies = values(name)
        if copies.count > 1 { return .repeated }
        guard let first = copies.first else { return .missing }
        guard let bytes = first else { return .malformed }
        if bytes.isEmpty { return .missing }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .malformed }
        return .value(text)
    }

    func text(_ name: String) -> String? {
        if case .value(let text) = single(name) { return text }
        return nil
    }

    /// The names in `names` that were sent more than once.
    func repeated(among names: [String]) -> [String] {
        names.filter { values($0).count > 1 }
    }
}

enum HTML {
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    /// A page with the headers every reference page carries: no framing, no caching, no referrer.
    static func page(status: Int, title: String, message: String) -> HTTPResponse {
        let body =
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>\(escape(title))</title></head>"
            + "<body><h1>\(escape(title))</h1><p>\(escape(message))</p></body></html>\n"
        return HTTPResponse(status: status, headers: pageHeaders(contentType: "text/html; charset=utf-8"), body: Array(body.utf8))
    }

    static func pageHeaders(contentType: String) -> HTTPHeaders {
        HTTPHeaders([
            ("Content-Type", contentType), ("X-Frame-Options", "DENY"), ("Content-Security-Policy", "frame-ancestors 'none'"),
            ("Cache-Control", "no-store"), ("Referrer-Policy", "no-referrer"),
        ])
    }
}
