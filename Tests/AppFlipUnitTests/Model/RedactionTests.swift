import AppFlipBase
import AppFlipDigest
import AppFlipModel
import AppFlipRedaction
import Foundation
import Testing

@Suite("Redaction")
struct RedactionTests {
    @Test("Credential parameters in a URL show as a keyed fingerprint only, without their length")
    func url() {
        let redacted = Redaction.redact(url: "https://h/a?code=S3CR3T-CODE&state=visible#access_token=T0KEN")
        #expect(!redacted.contains("S3CR3T-CODE"))
        #expect(!redacted.contains("T0KEN"))
        #expect(redacted.contains("state=visible"))
        #expect(redacted.contains("code=‹redacted hmac:"))
        #expect(!redacted.contains("chars"))
    }

    @Test("The same value gets the same fingerprint within a run; it is keyed, so a guess cannot be confirmed offline")
    func fingerprint() {
        let placeholder = Redaction.placeholder(for: Array("hunter22".utf8))
        #expect(placeholder == Redaction.placeholder(for: Array("hunter22".utf8)))
        #expect(placeholder != Redaction.placeholder(for: Array("hunter23".utf8)))
        // Not the unsalted SHA-256 of the value (what an offline guess would compute), and no length.
        #expect(!placeholder.contains(String(SHA256.hexDigest(Array("hunter22".utf8)).prefix(8))))
        #expect(placeholder.hasPrefix("‹redacted hmac:") && placeholder.utf8.count == "‹redacted hmac:12345678›".utf8.count, "\(placeholder)")
    }

    @Test("A plain placeholder style holds for its scope only: the same value outside it, or on another thread, keeps its fingerprint")
    func styleIsScoped() throws {
        let url = "https://h/a?code=S3CR3T-CODE&state=visible"
        let fingerprinted = Redaction.redact(url: url)
        let (plain, elsewhere, inside) = Redaction.$style.withValue(.plain) { () -> (String, String, String) in
            // A thread started here binds nothing: it writes the default style.
            let other = Locked("")
            let done = DispatchSemaphore(value: 0)
            Thread {
                other.withLock { $0 = Redaction.redact(url: url) }
                done.signal()
            }.start()
            done.wait()
            return (Redaction.redact(url: url), other.withLock { $0 }, Redaction.placeholder(for: Array("hunter22".utf8)))
        }
        #expect(plain == "https://h/a?code=‹redacted›&state=visible", "the memo of the fingerprinted URL is not reused")
        #expect(inside == "‹redacted›")
        #expect(elsewhere == fingerprinted && fingerprinted.contains("code=‹redacted hmac:"), "\(elsewhere)")
        #expect(Redaction.redact(url: url) == fingerprinted, "the scope ended")
        #expect(Redaction.scrubText("token=abcdef123456") != Redaction.$style.withValue(.plain) { Redaction.scrubText("token=abcdef123456") })
    }

    @Test("Free text loses name=value credentials and any known secret, wherever they appear")
    func text() {
        let log = "got code=ABCDEF123 then {\"refresh_token\":\"x\"} raw ABCDEF123; xcode=keep client_secret=hunter22"
        let scrubbed = Redaction.scrubText(log, secrets: ["ABCDEF123"])
        #expect(!scrubbed.contains("ABCDEF123"))
        #expect(!scrubbed.contains("hunter22"))
        #expect(scrubbed.contains("xcode=keep"))
    }

    @Test("A credential in a URL inside another parameter's value, raw or percent-encoded, is hidden too; other values stay")
    func nestedURL() {
        let raw = "https://oauth-redirect.googleusercontent.com/a/com.google.OPA?next=https://evil.example?code=SECRETCODE123&state=s1"
        let encoded = "https://oauth-redirect.googleusercontent.com/a/com.google.OPA?next=https%3A%2F%2Fevil.example%3Fcode%3DSECRETCODE123&state=s1"
        let deeper = "https://flip.example/a#x=https://a.example/?y=https%3A%2F%2Fb.example%2F%3Faccess_token%3DSECRETCODE123"
        // A fragment before the query: "#x?code=…" reads as a parameter named "x?code".
        let swallowed = "https://oauth-redirect.googleusercontent.com/a/com.google.OPA#x?code=SECRETCODE123&state=s1"
        for url in [raw, encoded, deeper, swallowed] {
            let redacted = Redaction.redact(url: url)
            #expect(!redacted.contains("SECRETCODE123"), "\(redacted)")
            #expect(redacted.contains("‹redacted hmac:"), "\(redacted)")
            #expect(Redaction.secrets(in: url).contains("SECRETCODE123"))
            #expect(!Redaction.scrub("opened " + url, secrets: Redaction.secrets(in: url)).contains("SECRETCODE123"))
        }
        #expect(Redaction.redact(url: raw).hasSuffix("&state=s1"))
        // Nothing to hide: a nested URL without credentials, a value with a question mark, a code too short to be one.
        for url in [
            "https://flip.example/a?next=https://ok.example/p?q=1&state=s", "https://flip.example/a?state=a?b#c",
            "https://flip.example/a?next=https://ok.example?code=abc",
        ] {
            #expect(Redaction.redact(url: url) == url)
        }
    }

    @Test("Two spellings of one text (equal as Strings, canonically) are each redacted and scrubbed in their own bytes")
    func canonicallyEqualSpellings() {
        let (decomposed, precomposed) = ("s3cre\u{301}t-VALUE-4711", "s3cr\u{E9}t-VALUE-4711")
        #expect(decomposed == precomposed)
        // The memo of a secret's forms is filled by one spelling; the other is still found in its own bytes.
        #expect(!Redaction.scrub("echo%20\(decomposed)", secrets: [decomposed]).containsBytes(decomposed))
        #expect(!Redaction.scrub("echo%20\(precomposed)", secrets: [precomposed]).containsBytes(precomposed))
        // The memo of redacted URLs: each comes back byte for byte as written.
        for url in ["https://h.example/cb?q=cafe\u{301}-4711", "https://h.example/cb?q=caf\u{E9}-4711"] {
            #expect(Array(Redaction.redact(url: url).utf8) == Array(url.utf8))
        }
    }
}
