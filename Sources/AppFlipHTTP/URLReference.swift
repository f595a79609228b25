/// Resolves a reference found in a page or a Location header against the URL it came from (RFC 3986 §5.2), for
/// a client that follows links itself. Only http and https are produced; anything else resolves to nil.
package enum URLReference {
    /// The absolute URL `reference` points to from `base`, without a fragment; nil when it is not http(s).
    package static func resolve(_ reference: String, against base: String) -> String? {
        let reference = String(reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            .trimmingCharacters(in: " \t\r\n")
        guard let (origin, baseTarget) = HTTPOrigin.split(base) else { return nil }
        let lower = reference.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            return HTTPOrigin.split(reference).map { $0.origin.description + $0.target }
        }
        if reference.hasPrefix("//") {
            return resolve(origin.scheme + ":" + reference, against: base)
        }
        if let colon = reference.firstIndex(of: ":"),
           reference[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
           !reference[..<colon].isEmpty, reference.firstIndex(of: "/").map({ colon < $0 }) ?? true {
            return nil  // another scheme: javascript:, mailto:, data:, …
        }
        let basePath = String(baseTarget.prefix { $0 != "?" })
        let baseQuery = baseTarget.firstIndex(of: "?").map { String(baseTarget[$0...]) } ?? ""
        let target: String
        if reference.isEmpty {
            target = basePath + baseQuery
        } else if reference.hasPrefix("?") {
            target = basePath + reference
        } else if reference.hasPrefix("/") {
            target = removingDotSegments(reference)
        } else {
            let directory = basePath.hasSuffix("/") ? basePath : String(basePath[..<(basePath.lastIndex(of: "/").map { basePath.index(after: $0) } ?? basePath.endIndex)])
            target = removingDotSegments((directory.isEmpty ? "/" : directory) + reference)
        }
        return origin.description + target
    }

    /// RFC 3986 §5.2.4 on the path; the query is kept as it is.
    static func removingDotSegments(_ target: String) -> String {
        let path = String(target.prefix { $0 != "?" })
        let query = target.firstIndex(of: "?").map { String(target[$0...]) } ?? ""
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, segment) in segments.enumerated() {
            let last = index == segments.count - 1
            switch segment {
            case ".":
                if last { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if last { output.append("") }
            default:
                output.append(segment)
            }
        }
        return "/" + output.joined(separator: "/") + query
    }
}
