import AppFlipBase

/// Resolves a reference found in a page or a Location header against the URL it came from (RFC 3986 §5.2), for
/// a client that follows links itself. Only http and https are produced; anything else resolves to nil.
///
/// Read as octets (RFC 3986 §2: the delimiters are ASCII bytes), as `HTTPOrigin.split` reads a URL: every hop of a
/// sign-in walk resolves its redirect or its form's action here, so there is no `Character` walk and no lower-cased
/// copy.
package enum URLReference {
    /// The absolute URL `reference` points to from `base`, without a fragment; nil when it is not http(s).
    package static func resolve(_ reference: String, against base: String) -> String? {
        guard let (origin, target) = HTTPOrigin.split(base) else { return nil }
        return resolve(reference, origin: origin, target: target).map { $0.origin.description + $0.target }
    }

    /// `resolve(_:against:)` for a base already split into its origin and request target, answering split too: a
    /// walk keeps its page's URL in these two parts, so nothing is joined only to be split again.
    package static func resolve(_ reference: String, origin: HTTPOrigin, target baseTarget: String) -> (origin: HTTPOrigin, target: String)? {
        let bytes = Array(reference.utf8)
        var start = 0
        var end = bytes.firstIndex(of: 0x23) ?? bytes.count  // the fragment goes
        while start < end, isSpace(bytes[start]) { start += 1 }
        while start < end, isSpace(bytes[end - 1]) { end -= 1 }
        let trimmed = bytes[start..<end]
        if trimmed.hasASCIIPrefixIgnoringCase("http://") || trimmed.hasASCIIPrefixIgnoringCase("https://") {
            return HTTPOrigin.split(String(decoding: trimmed, as: UTF8.self))
        }
        if trimmed.starts(with: [0x2F, 0x2F]) {
            return HTTPOrigin.split(origin.scheme + ":" + String(decoding: trimmed, as: UTF8.self))
        }
        if let colon = trimmed.firstIndex(of: 0x3A), colon != start, trimmed[..<colon].allSatisfy(isSchemeByte),
            trimmed.firstIndex(of: 0x2F).map({ colon < $0 }) ?? true
        {
            return nil  // another scheme: javascript:, mailto:, data:, …
        }
        if trimmed.isEmpty { return (origin, baseTarget) }
        let baseBytes = baseTarget.utf8
        let basePath = baseBytes[..<(baseBytes.firstIndex(of: 0x3F) ?? baseBytes.endIndex)]
        let target: [UInt8]
        if trimmed.first == 0x3F {
            target = Array(basePath) + trimmed
        } else if trimmed.first == 0x2F {
            target = removingDotSegments(Array(trimmed))
        } else {
            // The base path up to its last slash (all of it when it has none), then the reference.
            let directory = basePath.lastIndex(of: 0x2F).map { basePath[...$0] } ?? basePath
            target = removingDotSegments((directory.isEmpty ? [0x2F] : Array(directory)) + trimmed)
        }
        return (origin, String(decoding: target, as: UTF8.self))
    }

    /// RFC 3986 §5.2.4 on the path of `target` (which starts with "/"); the query is kept as it is.
    static func removingDotSegments(_ target: [UInt8]) -> [UInt8] {
        let queryStart = target.firstIndex(of: 0x3F) ?? target.count
        // The segments after the leading slash, as ranges of `target`.
        var segments: [Range<Int>] = []
        var segmentStart = 0
        for index in 0..<queryStart where target[index] == 0x2F {
            segments.append(segmentStart..<index)
            segmentStart = index + 1
        }
        segments.append(segmentStart..<queryStart)
        segments.removeFirst()
        var output: [Range<Int>] = []
        for (index, segment) in segments.enumerated() {
            let last = index == segments.count - 1
            let dots = target[segment].allSatisfy { $0 == 0x2E } ? segment.count : 0
            if dots == 1 {
                if last { output.append(segment.lowerBound..<segment.lowerBound) }
            } else if dots == 2 {
                if !output.isEmpty { output.removeLast() }
                if last { output.append(segment.lowerBound..<segment.lowerBound) }
            } else {
                output.append(segment)
            }
        }
        var result: [UInt8] = [0x2F]
        result.reserveCapacity(target.count + 1)
        for (index, segment) in output.enumerated() {
            if index > 0 { result.append(0x2F) }
            result += target[segment]
        }
        result += target[queryStart...]
        return result
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }

    /// A byte of a URI scheme (RFC 3986 §3.1): a letter, a digit, "+", "-" or ".".
    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2B, 0x2D, 0x2E: true
        default: false
        }
    }
}
