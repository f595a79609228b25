import AppFlipModel
import Testing

@Suite("Redaction")
struct RedactionTests {
    @Test("Credential parameters in a URL show as length and fingerprint only")
    func url() {
        let redacted = Redaction.redact(url: "https://h/a?code=S3CR3T-CODE&state=visible#access_token=T0KEN")
        #expect(!redacted.contains("S3CR3T-CODE"))
        #expect(!redacted.contains("T0KEN"))
        #expect(redacted.contains("state=visible"))
        #expect(redacted.contains("‹redacted 11 chars sha256:"))
    }

    @Test("The same value always gets the same fingerprint, so a reviewer can correlate")
    func fingerprint() {
        #expect(Redaction.placeholder(for: Array("abc".utf8)) == "‹redacted 3 chars sha256:ba7816bf›")
    }

    @Test("Free text loses name=value credentials and any known secret, wherever they appear")
    func text() {
        let log = "got code=ABCDEF123 then {\"refresh_token\":\"x\"} raw ABCDEF123; xcode=keep client_secret=hunter22"
        let scrubbed = Redaction.scrubText(log, secrets: ["ABCDEF123"])
        #expect(!scrubbed.contains("ABCDEF123"))
        #expect(!scrubbed.contains("hunter22"))
        #expect(scrubbed.contains("xcode=keep"))
    }
}
