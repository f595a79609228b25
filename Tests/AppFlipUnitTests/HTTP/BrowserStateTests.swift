import AppFlipHTTP
import AppFlipTestSupport
import Testing

/// How a simulated browser resolves links (RFC 3986 §5.2); its cookies are CookieJarTests'.
@Suite("Browser state: links")
struct BrowserStateTests {
    struct Resolution: Sendable, CustomTestStringConvertible {
        var reference: String
        var expected: String?
        var testDescription: String { "\(reference) → \(expected ?? "nil")" }
    }

    static let base = "https://auth.example/oauth/authorize?client_id=g&state=s"
    static let resolutions: [Resolution] = [
        Resolution(reference: "/login?next=%2Fx", expected: "https://auth.example/login?next=%2Fx"),
        Resolution(reference: "consent", expected: "https://auth.example/oauth/consent"),
        Resolution(reference: "../login", expected: "https://auth.example/login"),
        Resolution(reference: "./a/./b/../c", expected: "https://auth.example/oauth/a/c"),
        Resolution(reference: "?step=2", expected: "https://auth.example/oauth/authorize?step=2"),
        Resolution(reference: "", expected: "https://auth.example/oauth/authorize?client_id=g&state=s"),
        Resolution(reference: "#top", expected: "https://auth.example/oauth/authorize?client_id=g&state=s"),
        Resolution(reference: "//other.example/x", expected: "https://other.example/x"),
        Resolution(reference: "http://auth.example:8080/p#f", expected: "http://auth.example:8080/p"),
        Resolution(reference: "javascript:alert(1)", expected: nil),
        Resolution(reference: "mailto:a@b.example", expected: nil),
        Resolution(reference: "a/b:c", expected: "https://auth.example/oauth/a/b:c"),
        Resolution(reference: " \t/login\r\n", expected: "https://auth.example/login"),
        Resolution(reference: "/login\n", expected: "https://auth.example/login"),
        Resolution(reference: "HTTPS://auth.example/X?y#z", expected: "https://auth.example/X?y"),
        Resolution(reference: "../../../../x", expected: "https://auth.example/x"),
        Resolution(reference: "/a/b/..", expected: "https://auth.example/a/"),
        Resolution(reference: "/a/./b/.", expected: "https://auth.example/a/b/"),
        Resolution(reference: "/a/.../b", expected: "https://auth.example/a/.../b"),
        Resolution(reference: "/é/../ü?q=/../", expected: "https://auth.example/ü?q=/../"),
        Resolution(reference: "data:text/html,x", expected: nil),
        Resolution(reference: "1x+-.:y", expected: nil),
        Resolution(reference: ":x", expected: "https://auth.example/oauth/:x"),
    ]

    /// The resolver as it was written first (on `Character`s), kept as the test's independent reading of RFC 3986
    /// §5.2. It differs from the byte resolver only where a `Character` hides a delimiter (a "#" or a space with a
    /// combining mark after it; a lone "\n", which its trimming missed), which the inputs below leave out.
    enum CharacterResolver {
        static func resolve(_ reference: String, against base: String) -> String? {
            let reference = trim(String(reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""))
            guard let (origin, baseTarget) = HTTPOrigin.split(base) else { return nil }
            let lower = reference.lowercased()
            if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
                return HTTPOrigin.split(reference).map { $0.origin.description + $0.target }
            }
            if reference.hasPrefix("//") { return resolve(origin.scheme + ":" + reference, against: base) }
            if let colon = reference.firstIndex(of: ":"),
                reference[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
                !reference[..<colon].isEmpty, reference.firstIndex(of: "/").map({ colon < $0 }) ?? true
            {
                return nil
            }
            let basePath = String(baseTarget.prefix { $0 != "?" })
            let baseQuery = baseTarget.firstIndex(of: "?").map { String(baseTarget[$0...]) } ?? ""
            if reference.isEmpty { return origin.description + basePath + baseQuery }
            if reference.hasPrefix("?") { return origin.description + basePath + reference }
            if reference.hasPrefix("/") { return origin.description + removingDotSegments(reference) }
            let directory =
                basePath.hasSuffix("/")
                ? basePath
                : String(basePath[..<(basePath.lastIndex(of: "/").map { basePath.index(after: $0) } ?? basePath.endIndex)])
            return origin.description + removingDotSegments((directory.isEmpty ? "/" : directory) + reference)
        }

        static func trim(_ text: String) -> String {
            var text = Substring(text)
            while let first = text.first, " \t\r\n".contains(first) { text = text.dropFirst() }
            while let last = text.last, " \t\r\n".contains(last) { text = text.dropLast() }
            return String(text)
        }

        static func removingDotSegments(_ target: String) -> String {
            let path = String(target.prefix { $0 != "?" })
            let query = target.firstIndex(of: "?").map { String(target[$0...]) } ?? ""
            var output: [Substring] = []
            let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            for (index, segment) in segments.enumerated() {
                let last = index == segments.count - 1
                switch segment {
                case ".": if last { output.append("") }
                case "..":
                    if !output.isEmpty { output.removeLast() }
                    if last { output.append("") }
                default: output.append(segment)
                }
            }
            return "/" + output.joined(separator: "/") + query
        }
    }

    @Test("The byte resolver agrees with the Character resolver on 20,000 seeded references and bases")
    func resolverAgreesWithOracle() {
        let pieces = [
            "/", "/", ".", "..", "./", "../", "?", "#", ":", "a", "b", "é", "%2F", " ", "\t", "\r\n", "http://", "HTTPS://",
            "//", "x:", "javascript:", "h.example", ":8080", "=", "&",
        ]
        let bases = [
            Self.base, "https://auth.example", "http://h.example:8080/a/b/", "https://h.example/a?x=/b/../c", "http://[::1]:9/x/y",
            "ftp://nowhere/x",
        ]
        var random = Mutator(seed: 20_261_123)
        for _ in 0..<20_000 {
            let reference = (0..<random.below(9)).map { _ in pieces[random.below(pieces.count)] }.joined()
            let base = bases[random.below(bases.count)]
            let expected = CharacterResolver.resolve(reference, against: base)
            let resolved = URLReference.resolve(reference, against: base)
            if resolved != expected {
                Issue.record("\(reference.debugDescription) against \(base): \(resolved ?? "nil"), the Character resolver \(expected ?? "nil")")
                return
            }
        }
    }

    /// `HTTPOrigin.split` as it read a URL through `String.UTF8View` indices before it read a buffer in place, kept
    /// as the oracle of the faster reading (its scheme and port readers written plainly).
    static func viewSplit(_ url: String) -> (origin: HTTPOrigin, target: String)? {
        let scheme: String
        let lower = String(decoding: url.utf8.prefix(8).map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        if lower.hasPrefix("http://") {
            scheme = "http"
        } else if lower.hasPrefix("https://") {
            scheme = "https"
        } else {
            return nil
        }
        let bytes = url.utf8
        let authorityStart = bytes.index(bytes.startIndex, offsetBy: scheme.count + 3)
        let authorityEnd = bytes[authorityStart...].firstIndex { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 } ?? bytes.endIndex
        let authority = bytes[authorityStart..<authorityEnd]
        guard !authority.isEmpty, !authority.contains(0x40) else { return nil }
        var host = authority
        var port = scheme == "https" ? 443 : 80
        func digits(_ text: Substring.UTF8View) -> Int? {
            guard !text.isEmpty, text.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            let value = text.reduce(0) { Swift.min($0 * 10 + Int($1 - 0x30), 100_000) }
            return (1...65_535).contains(value) ? value : nil
        }
        if authority.first == 0x5B {
            guard let close = authority.firstIndex(of: 0x5D) else { return nil }
            host = bytes[bytes.index(after: authorityStart)..<close]
            let after = bytes[bytes.index(after: close)..<authorityEnd]
            if after.first == 0x3A {
                guard let value = digits(after.dropFirst()) else { return nil }
                port = value
            } else if !after.isEmpty {
                return nil
            }
        } else if let colon = authority.lastIndex(of: 0x3A) {
            host = bytes[authorityStart..<colon]
            guard let value = digits(bytes[bytes.index(after: colon)..<authorityEnd]) else { return nil }
            port = value
        }
        guard !host.isEmpty else { return nil }
        let targetEnd = bytes[authorityEnd...].firstIndex(of: 0x23) ?? bytes.endIndex
        var target = String(decoding: bytes[authorityEnd..<targetEnd], as: UTF8.self)
        if target.isEmpty || target.utf8.first == 0x3F { target = "/" + target }
        return (HTTPOrigin(scheme: scheme, host: String(decoding: host, as: UTF8.self), port: port), target)
    }

    @Test("URLs split in place as they did through String.UTF8View, on 20,000 seeded URLs")
    func splitAgreesWithOracle() {
        let pieces = [
            "http://", "HTTPS://", "hTtP://", "https:/", "h.example", "[::1]", "[", "]", ":", ":8080", ":0", ":65536", ":99999",
            "@", "/", "?", "#", "a", "é", "%40", " ", "0", "\u{301}",
        ]
        var random = Mutator(seed: 20_261_124)
        for _ in 0..<20_000 {
            let url = (0..<(1 + random.below(8))).map { _ in pieces[random.below(pieces.count)] }.joined()
            let (split, expected) = (HTTPOrigin.split(url), Self.viewSplit(url))
            guard split?.origin == expected?.origin, split?.target == expected?.target else {
                Issue.record("\(url.debugDescription): \(String(describing: split)), through the view \(String(describing: expected))")
                return
            }
        }
    }

    @Test("Links resolve against the page they came from", arguments: resolutions)
    func resolve(_ resolution: Resolution) {
        #expect(URLReference.resolve(resolution.reference, against: Self.base) == resolution.expected)
    }
}
