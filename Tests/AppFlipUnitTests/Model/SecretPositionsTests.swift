import AppFlipRedaction
import Foundation
import Testing

@testable import AppFlipModel

/// Whatever stands where a secret would in an adapter's answer is hidden whether or not the answer is usable: for
/// every contract (link handler, Android activity, native app), every way an answer can be unusable (a member
/// missing or of another type, a repeated member, a line cut short at any byte), and random secrets.
@Suite("Secret positions in unusable answers")
struct SecretPositionsTests {

    /// A secret of the characters a code or token is made of, JSON-safe, random each time.
    private static func secret(_ generator: inout some RandomNumberGenerator) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~+/")
        return "S" + String((0..<Int.random(in: 16...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? "x" })
    }

    /// One contract's answers carrying `secret` at a secret position, each unusable in its own way.
    private static func answers(_ secret: String) -> [(contract: String, text: String)] {
        let code = #"{"type":"String","value":"\#(secret)"}"#
        let escapedURL =
            "https://oauth-redirect.googleusercontent.com/a/com.example?code=\(secret.replacingOccurrences(of: "/", with: "\\/"))&state=s"
        return [
            ("android, no finished", #"{"id":"r1","result_code":-1,"data":{"extras":{"AUTHORIZATION_CODE":\#(code)}}}"#),
            ("android, result_code a string", #"{"id":"r1","result_code":"-1","finished":true,"data":{"extras":{"AUTHORIZATION_CODE":\#(code)}}}"#),
            (
                "android, a CharSequence code",
                #"{"id":"r1","result_code":-1,"finished":true,"data":{"extras":{"AUTHORIZATION_CODE":{"type":"CharSequence","value":"\#(secret)"}}}}"#
            ),
            (
                "android, a String[] code",
                #"{"id":"r1","result_code":-1,"finished":true,"data":{"extras":{"AUTHORIZATION_CODE":{"type":"String[]","value":["\#(secret)"]}}}}"#
            ),
            ("android, a bare code", #"{"id":"r1","result_code":-1,"finished":true,"data":{"extras":{"AUTHORIZATION_CODE":"\#(secret)"}}}"#),
            (
                "android, a repeated member",
                #"{"id":"r1","result_code":-1,"finished":true,"finished":true,"data":{"extras":{"AUTHORIZATION_CODE":\#(code)}}}"#
            ),
            ("android, another id", #"{"id":"zz","result_code":-1,"finished":true,"data":{"extras":{"authorization_code":\#(code)}}}"#),
            ("link, no id", #"{"action":"open","url":"\#(escapedURL)"}"#),
            ("link, an unknown action", #"{"id":"r1","action":"opn","url":"\#(escapedURL)"}"#),
            ("link, a repeated url", #"{"id":"r1","action":"open","url":"https://x.example/","url":"\#(escapedURL)"}"#),
            ("link, not an object", #"["\#(escapedURL)"]"#),
            ("native, a bearer credential", #"{"id":"r1","action":"api-cal","authorization":"Bearer \#(secret)"}"#),
            ("native, a token member", #"{"id":"r1","refresh_token":"\#(secret)","action":"?"}"#),
            ("native, a numeric code", #"{"id":"r1","code":\#(secret.utf8.reduce(7) { ($0 &* 31 &+ Int($1)) % 1_000_000_000 } + 1_000_000_000)}"#),
        ]
    }

    @Test("A code at a secret position never shows, whole or cut at any byte, whatever makes the answer unusable")
    func property() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<8 {
            let secret = Self.secret(&generator)
            for (contract, text) in Self.answers(secret) {
                let hidden = Redactor(secrets: SecretPositions.inAnswer(text)).redact(text)
                let value = contract.hasSuffix("numeric code") ? String(text.split(separator: ":").last?.dropLast() ?? "") : secret
                #expect(!hidden.contains(value), "\(contract): \(hidden)")
                // Cut short after every byte past the secret's start: what is left of it is hidden too.
                guard let start = text.range(of: value)?.lowerBound else { continue }
                let bytes = Array(text.utf8)
                let from = text.utf8.distance(from: text.utf8.startIndex, to: start)
                for cut in (from + 4)..<bytes.count {
                    let piece = String(decoding: bytes[..<cut], as: UTF8.self)
                    let shown = Redactor(secrets: SecretPositions.inAnswer(piece)).redact(piece)
                    let visible = String(decoding: bytes[from..<min(cut, from + value.utf8.count)], as: UTF8.self)
                    #expect(!shown.contains(visible), "\(contract), cut at \(cut): \(shown)")
                }
            }
        }
    }

    @Test("What is not at a secret position stays: the contract's type tags, ids, result and error codes, plain URLs")
    func others() {
        let text =
            #"{"id":"request-1","result_code":-2,"finished":true,"data":{"extras":{"ERROR_TYPE":{"type":"int","value":2},"ERROR_CODE":{"type":"int","value":13},"AUTHORIZATION_CODE":{"type":"String","value":"live-code-123456"}}},"url":"https://example.com/page?state=abc"}"#
        let found = SecretPositions.inAnswer(text)
        #expect(found == ["live-code-123456"], "\(found)")
        #expect(SecretPositions.inAnswer("not json at all, \"quoted\": yes").isEmpty)
    }
}
