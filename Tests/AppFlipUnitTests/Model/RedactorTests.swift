import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipModel
@testable import AppFlipRedaction

/// A secret echoed back in any encoding a server or an app may use, whole or cut at any position, never survives
/// redaction. The encoders here are written apart from the redactor (Foundation's base64, per-character escapes), so
/// the property is checked against an independent reading of each encoding.
@Suite("Redactor")
struct RedactorTests {
    /// One way a target may echo a value.
    enum Echo: String, CaseIterable {
        case raw, percentUpper, percentLower, formPlus, percentTwice, jsonPython, jsonEveryByte, htmlNamed, htmlDecimal, htmlHex
        case jsonOfPercent, base64, base64URL, hexLower, hexUpper, pythonBytes, pythonText, splitLines

        /// The encoded form of each character of `secret`, in order (for escapes), or nil for the encodings of the
        /// whole byte string (base64, hex).
        func units(of secret: String) -> [(text: String, bytes: Int)]? {
            switch self {
            case .raw: return secret.unicodeScalars.map { (String($0), String($0).utf8.count) }
            case .percentUpper, .percentLower, .formPlus, .percentTwice, .jsonOfPercent:
                return secret.unicodeScalars.map { scalar in
                    var text = String(scalar).utf8.map { byte -> String in
                        if Self.isUnreserved(byte) { return String(UnicodeScalar(byte)) }
                        if self == .formPlus, byte == 0x20 { return "+" }
                        let hex = String(format: self == .percentLower ? "%%%02x" : "%%%02X", byte)
                        return self == .percentTwice ? "%25" + hex.dropFirst() : hex
                    }.joined()
                    if self == .jsonOfPercent { text = text.replacingOccurrences(of: "%", with: "\\u0025") }
                    return (text, String(scalar).utf8.count)
                }
            case .jsonPython, .jsonEveryByte:
                return secret.unicodeScalars.map { scalar in
                    let size = String(scalar).utf8.count
                    if self == .jsonPython, scalar == "\"" || scalar == "\\" { return ("\\" + String(scalar), size) }  // json.dumps: \" and \\
                    if self == .jsonPython, scalar.isASCII, scalar.value >= 0x20 { return (String(scalar), size) }
                    if scalar.value > 0xFFFF {
                        let value = scalar.value - 0x10000
                        return (String(format: "\\u%04x\\u%04x", 0xD800 + (value >> 10), 0xDC00 + (value & 0x3FF)), size)
                    }
                    return (String(format: "\\u%04x", scalar.value), size)
                }
            case .pythonBytes, .pythonText:
                // Python's repr: of bytes (`b'…'`: each byte that is no printable ASCII as `\xhh`), or of text (what
                // is printable as it is); `\` and `'` escaped in both.
                return secret.unicodeScalars.map { scalar in
                    let size = String(scalar).utf8.count
                    if scalar == "\\" || scalar == "'" { return ("\\" + String(scalar), size) }
                    if self == .pythonText || (0x20...0x7E).contains(scalar.value) && scalar.isASCII {
                        return self == .pythonBytes || scalar.value >= 0x20 ? (String(scalar), size) : (String(format: "\\x%02x", scalar.value), size)
                    }
                    return (String(scalar).utf8.map { String(format: "\\x%02x", $0) }.joined(), size)
                }
            case .splitLines:
                return nil
            case .htmlNamed, .htmlDecimal, .htmlHex:
                let names = Dictionary(HTMLNamedReferences.all.map { ($0.scalar, $0.name) }, uniquingKeysWith: { min($0, $1) })
                return secret.unicodeScalars.map { scalar in
                    let size = String(scalar).utf8.count
                    switch self {
                    case .htmlNamed:
                        if let name = names[scalar] { return ("&\(name);", size) }
                        return (scalar.properties.isAlphabetic || scalar.properties.numericType != nil ? String(scalar) : "&#\(scalar.value);", size)
                    case .htmlDecimal: return ("&#\(scalar.value);", size)
                    default: return ("&#x\(String(scalar.value, radix: 16, uppercase: true));", size)
                    }
                }
            case .base64, .base64URL, .hexLower, .hexUpper:
                return nil
            }
        }

        static func isUnreserved(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || "-._~".utf8.contains(byte)
        }
    }

    static let alphabet: [String] =
        Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789").map(String.init)
        + ["\"", "'", "&", "=", "%", "+", "/", " ", "\\", "<", ">", "#", "?", "é", "ü", "ß", "日", "本", "😀", "-", "_", "~", ":"]

    static func secret(_ random: inout Mutator) -> String {
        (0..<(8 + random.below(33))).map { _ in alphabet[random.below(alphabet.count)] }.joined()
    }

    static let filler = ["lorem ", "ipsum ", "{\"a\": 1} ", "<p>", "&amp; ", "x=1&y=2 ", "%20 ", "\\n ", "HTTP/1.1 200 ", "+ "]

    static func filler(_ random: inout Mutator) -> String {
        (0..<random.below(5)).map { _ in filler[random.below(filler.count)] }.joined()
    }

    /// The secret written in `echo` inside surrounding text, and the part of the text that gives it away.
    static func echoed(_ secret: String, as echo: Echo, _ random: inout Mutator) -> (
        text: String, telltale: String, units: [(text: String, bytes: Int)]
    ) {
        let (before, after) = (filler(&random), filler(&random))
        if let units = echo.units(of: secret) {
            let encoded = units.map(\.text).joined()
            return (before + encoded + after, encoded, units)
        }
        let bytes = Array(secret.utf8)
        switch echo {
        case .splitLines:
            // Printed across two lines: a line break (either kind) somewhere inside it.
            var units = Echo.raw.units(of: secret) ?? []
            units.insert((random.below(2) == 0 ? "\n" : "\r\n", 0), at: 1 + random.below(units.count - 1))
            let encoded = units.map(\.text).joined()
            return (before + encoded + after, encoded, units)
        case .base64, .base64URL:
            // Inside a longer encoded string, at any alignment: the characters decided by the secret alone.
            let (prefix, suffix) = (random.below(3), random.below(3))
            let data =
                (0..<prefix).map { _ in UInt8(truncatingIfNeeded: random.next()) } + bytes
                + (0..<suffix).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            var encoded = Data(data).base64EncodedString()
            if echo == .base64URL {
                encoded = encoded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(
                    of: "=", with: "")
            }
            let characters = Array(encoded)
            let first = (8 * prefix + 5) / 6
            let last = (8 * (prefix + bytes.count)) / 6
            let telltale = String(characters[first..<last])
            return (before + encoded + after, telltale, telltale.map { (String($0), 1) })
        default:
            let hex = bytes.map { String(format: echo == .hexUpper ? "%02X" : "%02x", $0) }
            return (before + hex.joined() + after, hex.joined(), hex.map { ($0, 1) })
        }
    }

    /// The text with each placeholder's fingerprint blanked: the fingerprint is 8 hex digits of a keyed HMAC drawn
    /// anew each run, so a few hex characters of a secret can appear in it by chance ("47a" in "7347aee0"), which is
    /// no leak.
    static func withoutFingerprints(_ text: String) -> String {
        text.replacingOccurrences(of: "hmac:[0-9a-f]{8}", with: "hmac:…", options: .regularExpression)
    }

    @Test("A random secret echoed in every encoding never survives, on 3,000 seeded secrets", arguments: Echo.allCases)
    func wholeEchoes(echo: Echo) {
        var random = Mutator(seed: 20_261_125 &+ UInt64(Echo.allCases.firstIndex(of: echo) ?? 0))
        for _ in 0..<200 {
            let secret = Self.secret(&random)
            let (text, telltale, _) = Self.echoed(secret, as: echo, &random)
            let redacted = Self.withoutFingerprints(Redactor(secrets: [secret]).redact(text))
            guard !redacted.containsBytes(telltale), !redacted.containsBytes(secret) else {
                Issue.record("\(echo) of \(secret.debugDescription) survived: \(text.debugDescription) -> \(redacted.debugDescription)")
                return
            }
        }
    }

    @Test("A secret cut at any position before redaction shows no prefix of 3 bytes or more at the cut", arguments: Echo.allCases)
    func cutEchoes(echo: Echo) {
        var random = Mutator(seed: 20_261_200 &+ UInt64(Echo.allCases.firstIndex(of: echo) ?? 0))
        for _ in 0..<20 {
            let secret = Self.secret(&random)
            let (text, telltale, units) = Self.echoed(secret, as: echo, &random)
            guard let start = text.range(of: telltale)?.lowerBound else { continue }
            let redactor = Redactor(secrets: [secret])
            // Cut after each unit: the kept units, when they carry 3 bytes of the secret (4 characters of base64), must not show.
            var kept = ""
            var keptBytes = 0
            for unit in units {
                kept += unit.text
                keptBytes += unit.bytes
                let cut = String(text[..<start]) + kept
                // Every cut the suite makes leaves a mark; the plain end of a text is no cut (no 3-byte rule there).
                for marker in ["\n… [truncated: 99 more bytes]", "… (512 bytes)", "\n… [stderr truncated: 7 more bytes]"] {
                    let redacted = Self.withoutFingerprints(redactor.redact(cut + marker))
                    let enough =
                        echo == .base64 || echo == .base64URL
                        ? kept.count >= 4 : (echo == .hexLower || echo == .hexUpper ? kept.count >= 6 : keptBytes >= 3)
                    if enough, redacted.containsBytes(kept) {
                        Issue.record(
                            "\(echo) of \(secret.debugDescription) cut to \(kept.debugDescription)\(marker.debugDescription) survived: \(redacted.debugDescription)"
                        )
                        return
                    }
                }
            }
        }
    }

    @Test("A secret printed across two lines (an app's answer cut into lines) shows neither part of 4 bytes or more")
    func splitAcrossLines() {
        var random = Mutator(seed: 20_261_128)
        for _ in 0..<300 {
            let secret = Self.secret(&random)
            let scalars = Array(secret.unicodeScalars)
            let at = 1 + random.below(scalars.count - 1)
            let (head, tail) = (String(String.UnicodeScalarView(scalars[..<at])), String(String.UnicodeScalarView(scalars[at...])))
            // Printed as it is across two lines, or inside a JSON string (escaped as JSON escapes it) across an escaped one.
            let json = { (part: String) in part.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") }
            for (lineBreak, written) in [("\n", { (part: String) in part }), ("\r\n", { $0 }), ("\\n", json)] {
                let text = "{\"id\":\"1\",\"note\":\"" + written(head) + lineBreak + written(tail) + "\"}\nafter"
                let redacted = Self.withoutFingerprints(Redactor(secrets: [secret]).redact(text))
                for part in [written(head), written(tail)] where part.utf8.count >= 4 && redacted.containsBytes(part) {
                    Issue.record(
                        "\(secret.debugDescription) split by \(lineBreak.debugDescription): \(part.debugDescription) survived: \(redacted.debugDescription)"
                    )
                    return
                }
            }
        }
        // Not a secret's parts when each is only beside a line break: ordinary lines stay as they are.
        let redactor = Redactor(secrets: ["client-secret-value"])
        #expect(redactor.redact("the client\n-side secret\n") == "the client\n-side secret\n")
        #expect(redactor.redact("line one\r\nline two\n") == "line one\r\nline two\n")
    }

    @Test("A secret printed as a Python bytes literal or repr is hidden: \\xHH bytes, \\' and \\U escapes")
    func pythonLiterals() {
        let secret = "pässwörd-Sécret'9"
        let redactor = Redactor(secrets: [secret])
        for text in [
            "token b'p\\xc3\\xa4ssw\\xc3\\xb6rd-S\\xc3\\xa9cret\\'9' printed", "repr: 'pässwörd-Sécret\\'9'",
            "[b'p\\xc3\\xa4ssw\\xc3\\xb6rd-S\\xc3\\xa9cret\\'9']",
        ] {
            let redacted = redactor.redact(text)
            #expect(!redacted.contains("ssw") && !redacted.contains("cret"), "\(text) -> \(redacted)")
        }
        #expect(Redactor(secrets: ["emoji-\u{1F600}-secret"]).redact("x 'emoji-\\U0001f600-secret' y").contains("‹redacted"))
    }

    @Test("An excerpt is redacted whole, then cut: no secret straddling the cut leaves a prefix")
    func excerptRedactsBeforeCutting() {
        let secret = "Zq8-client-SECRET-0123456789abcdefXYZ"
        let body = String(repeating: "a", count: 500) + "\"client_assertion_was\": \"" + secret + "\""
        for limit in stride(from: 480, through: 560, by: 1) {
            let excerpt = Redactor(secrets: [secret]).excerpt(body, limit: limit)
            #expect(!excerpt.containsBytes(String(secret.prefix(3))), "limit \(limit): \(excerpt)")
            // A cut never falls inside a placeholder: it is whole or absent.
            #expect(excerpt.components(separatedBy: "‹").count == excerpt.components(separatedBy: "›").count, "limit \(limit): \(excerpt)")
        }
    }

    @Test("Named credentials are hidden without knowing them: parameters, JSON members, schemes and userinfo; prose stays")
    func namedCredentials() {
        let cases: [(String, String)] = [
            ("got CODE=abc123def and Client_Secret=hunter2222", "abc123def"),
            ("{\"refresh_token\" : \"rt-9f8e7d\"}", "rt-9f8e7d"),
            ("Authorization: bearer eyJhbGciOiJIUzI1NiJ9.e30.x", "eyJhbGciOiJIUzI1NiJ9"),
            ("posts to https://alice:pa55w0rd!@login.example/form", "pa55w0rd!"),
            ("next=https%3A%2F%2Fh%2Fcb%3Fx%3D1%26code=SECRETCODE9", "SECRETCODE9"),
            ("client_assertion=eyJraWQiOiJrMSJ9.payload.sig", "eyJraWQiOiJrMSJ9"),
            ("login?user=alice&pwd=correct-horse", "correct-horse"),
        ]
        for (text, hidden) in cases {
            let redacted = Redactor().redact(text)
            #expect(!redacted.contains(hidden), "\(text) -> \(redacted)")
        }
        for prose in ["send a Bearer token in the header", "the code= parameter is missing", "xcode=keep", "https://alice@login.example/"] {
            #expect(Redactor().redact(prose) == prose)
        }
        #expect(Redactor().redact("https://alice:pw123456@h.example/p").hasPrefix("https://alice:‹redacted hmac:"))
    }

    @Test("A text found clean is remembered as clean by its bytes alone: the same text with a credential is still hidden")
    func rememberedCleanTexts() {
        // Each clean text twice (the second is answered from memory), then the same length with a credential: at the
        // end (where the last word is read), in the middle, at the start, and in a short text.
        let clean = [
            "the adapter answered with a URL that Google's app cannot open: attempt 41 of 50",
            "code:abc123def ok", "pwd+x",
        ]
        for text in clean {
            #expect(Redactor().redact(text) == text)
            #expect(Redactor().redact(text) == text)
        }
        let changed = [
            clean[0].replacingOccurrences(of: " of 50", with: " pwd=5"), clean[0].replacingOccurrences(of: "URL that", with: "pwd=t0k3"),
            clean[1].replacingOccurrences(of: "code:", with: "code="), "pwd=x",
        ]
        for text in changed { #expect(Redactor().redact(text) != text, "\(text) was taken for a clean text") }
        // The memory is of clean texts only: a text with a credential is hidden every time.
        for _ in 0..<2 { #expect(!Redactor().redact("then pwd=correct-horse-9 again").contains("correct-horse")) }
    }

    @Test("Equal secrets correlate whatever encoding they were seen in; different secrets do not")
    func correlation() {
        let secret = "s3cr3t value/+é"
        let redactor = Redactor(secrets: [secret, "other-secret-42"])
        let forms = [
            secret, "s3cr3t%20value%2F%2B%C3%A9", "s3cr3t+value%2f%2b%c3%a9", "s3cr3t value\\/+\\u00e9", "s3cr3t value/+&eacute;",
            Data(secret.utf8).base64EncodedString(),
        ]
        let placeholders = Set(forms.map { redactor.redact("x " + $0 + " y") })
        #expect(placeholders.count == 1, "\(placeholders)")
        #expect(!redactor.redact("other-secret-42").contains(redactor.redact(secret)))
    }

    @Test("A text that merely ends the way a secret begins keeps its end: only a cut (a truncation mark) is an edge")
    func plainEndIsNoCut() {
        let redactor = Redactor(secrets: ["test-client-secret"])
        #expect(redactor.redact("text/plain, 0 body bytes") == "text/plain, 0 body bytes")
        #expect(redactor.redact("text/plain, 0 body bytes\n… [truncated: 3 more bytes]").hasPrefix("text/plain, 0 body by‹redacted hmac:"))
    }

    @Test("A secret shorter than 4 bytes is hidden by its name only, not wherever its bytes occur")
    func shortSecrets() {
        let redactor = Redactor(secrets: ["ab1"])
        #expect(redactor.redact("grab1 and tab1e") == "grab1 and tab1e")
        #expect(!redactor.redact("login?user=x&pwd=ab1").contains("ab1"))
        #expect(!Redactor(secrets: ["ab12"]).redact("grab12").contains("ab12"))
    }

    @Test("Text with no secret and nothing named comes back byte for byte, whatever escapes it holds")
    func untouched() {
        var random = Mutator(seed: 20_261_301)
        let redactor = Redactor(secrets: ["a-secret-that-is-absent"])
        for _ in 0..<2_000 {
            let text = (0..<(1 + random.below(12))).map { _ in Self.filler[random.below(Self.filler.count)] }.joined()
            #expect(Array(redactor.redact(text).utf8) == Array(text.utf8))
        }
    }
}
