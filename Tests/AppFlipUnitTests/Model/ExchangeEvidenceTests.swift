@testable import AppFlipModel
import Foundation
import Testing

/// An exchange's headers as evidence: credentials hidden by the header's name whatever their value, every other
/// value kept as it came, the whole bounded; and the exchange's text with or without its time.
@Suite("Exchange evidence")
struct ExchangeEvidenceTests {
    init() { Redaction.showFingerprints(true) }

    private func hidden(_ name: String, _ value: String) -> String { HeaderCredentials.hide(name: name, value: value) }

    @Test("Authorization keeps its scheme and hides its credentials, whatever the scheme or spacing")
    func authorization() {
        for (value, scheme) in [("Basic Y2xpZW50OnNlY3JldA==", "Basic"), ("Bearer at-123", "Bearer"), ("DPoP eyJhbGciOi.x.y", "DPoP"),
                                ("  bearer\tshort", "bearer"), ("Negotiate YIIG", "Negotiate")] {
            for name in ["Authorization", "proxy-authorization"] {
                let shown = hidden(name, value)
                #expect(shown.hasPrefix(scheme + " ‹redacted"), "\(name): \(value) → \(shown)")
                #expect(!shown.contains(value.split(whereSeparator: { $0 == " " || $0 == "\t" }).last.map(String.init) ?? "?"))
            }
        }
        // A value with no scheme is a credential all the same.
        #expect(hidden("Authorization", "opaque-key-1234").hasPrefix("‹redacted"))
    }

    @Test("Cookies keep their names and attributes and lose their values")
    func cookies() {
        let cookie = hidden("Cookie", "session=abc123456; theme=dark; empty=")
        #expect(cookie.hasPrefix("session=‹redacted"))
        #expect(cookie.contains("; theme=‹redacted") && cookie.hasSuffix("; empty="))
        #expect(!cookie.contains("abc123456") && !cookie.contains("dark"))
        let set = hidden("set-cookie", "sid=s3cr3t-value; Path=/; HttpOnly; Secure")
        #expect(set.hasPrefix("sid=‹redacted") && set.hasSuffix("; Path=/; HttpOnly; Secure") && !set.contains("s3cr3t"))
    }

    @Test("Headers named like a credential are hidden whole; other headers stay as they came")
    func namedLikeCredentials() {
        for name in ["X-Api-Key", "x-auth-token", "Client-Secret", "X-Password", "apikey"] {
            #expect(hidden(name, "value-1234").hasPrefix("‹redacted"), "\(name)")
        }
        for (name, value) in [("Content-Type", "application/json"), ("Location", "https://example.com/cb?state=1"), ("X-Keyboard", "qwerty"),
                              ("Cache-Control", "no-store"), ("X-Token-Count", "3")] {
            #expect(hidden(name, value) == value, "\(name)")
        }
    }

    @Test("Header lines are bounded: 40 kept, the rest counted; a long value cut after redaction")
    func bounded() {
        let redactor = Redactor(secrets: ["known-secret-value"])
        let many = (0..<55).map { (name: "X-H\($0)", value: "v\($0)") }
        let kept = redactor.redact(Evidence.headers(many))
        #expect(kept.count == Evidence.headerLimit + 1)
        #expect(kept.last == Evidence.Header("", "… 15 more header lines not kept"))
        let long = String(repeating: "a", count: 2000) + "known-secret-value"
        let cut = redactor.redact(Evidence.headers([(name: "X-Long", value: "known-secret-value " + long)]))
        #expect(cut[0].value.utf8.count < Evidence.headerValueLimit + 60)
        #expect(cut[0].value.hasPrefix("‹redacted") && cut[0].value.contains("[truncated:"))
        #expect(!cut[0].value.contains("known-secret"))
        // Redacted together, split back one a header; a value that would not split back is redacted alone.
        let mixed = redactor.redact([Evidence.Header("Authorization", "Bearer tok-123456789"), Evidence.Header("X-A", "a known-secret-value b"),
                                     Evidence.Header("X-B", "line\nbreak known-secret-value"), Evidence.Header("X-C", "")])
        #expect(mixed.map(\.name) == ["Authorization", "X-A", "X-B", "X-C"])
        #expect(mixed[0].value.hasPrefix("Bearer ‹redacted") && mixed[3].value == "")
        #expect(mixed[1].value.hasPrefix("a ‹redacted") && mixed[1].value.hasSuffix("› b"))
        #expect(mixed[2].value.hasPrefix("line\nbreak ‹redacted"))
    }

    @Test("The exchange reads request line, time, request headers, the rest, response headers; without its time when asked")
    func rendering() throws {
        let sent = try #require(Evidence.Exchange.date("2026-11-25T20:21:16.123Z"))
        let exchange = Evidence.Exchange("POST https://as.example/token\n  body: grant_type=x\n  → HTTP 200", sentAt: sent, milliseconds: 12,
                                         requestHeaders: [Evidence.Header("Host", "as.example")],
                                         responseHeaders: [Evidence.Header("Content-Type", "application/json"), Evidence.Header("", "… 1 more")])
        #expect(exchange.rendered(times: true) == """
            POST https://as.example/token
              at 2026-11-25T20:21:16.123Z, answered in 12 ms
              > Host: as.example
              body: grant_type=x
              → HTTP 200
              < Content-Type: application/json
              < … 1 more
            """)
        #expect(!exchange.rendered(times: false).contains("2026") && !exchange.rendered(times: false).contains(" ms"))
        #expect(Evidence.Exchange.timestamp(sent) == "2026-11-25T20:21:16.123Z")
        #expect(Evidence.Exchange("TLS handshake").rendered(times: true) == "TLS handshake")
    }
}
