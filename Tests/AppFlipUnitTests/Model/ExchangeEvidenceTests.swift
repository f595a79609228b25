import AppFlipRedaction
import Foundation
import Testing

@testable import AppFlipModel

/// An exchange's headers as evidence: credentials hidden by the header's name whatever their value, every other
/// value kept as it came, the whole bounded; and the exchange's text with or without its time.
@Suite("Exchange evidence")
struct ExchangeEvidenceTests {

    private func hidden(_ name: String, _ value: String) -> String { HeaderCredentials.hide(name: name, value: value) }

    @Test("Authorization keeps its scheme and hides its credentials, whatever the scheme or spacing")
    func authorization() {
        for (value, scheme) in [
            ("Basic Y2xpZW50OnNlY3JldA==", "Basic"), ("Bearer at-123", "Bearer"), ("DPoP eyJhbGciOi.x.y", "DPoP"),
            ("  bearer\tshort", "bearer"), ("Negotiate YIIG", "Negotiate"),
        ] {
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

    @Test("Only headers known to carry no credential keep their values; every other value is hidden whole")
    func harmlessOnly() {
        // A list of credential headers is never complete: these each leaked under a rule that named credentials.
        for name in [
            "X-Api-Key", "x-auth-token", "Client-Secret", "X-Password", "apikey", "X-Session", "X-Session-Id", "X-Refresh", "X-Csrf",
            "Authentication-Info", "X-Keyboard", "X-Token-Count", "Set-Cookie2-Extra",
        ] {
            #expect(hidden(name, "nextnonce=value-1234").hasPrefix("‹redacted"), "\(name)")
        }
        for (name, value) in [
            ("Content-Type", "application/json"), ("Cache-Control", "no-store"), ("WWW-Authenticate", #"Bearer error="invalid_token""#),
            ("Strict-Transport-Security", "max-age=63072000"), ("x-request-id", "4f1c"), ("Retry-After", "2"), ("Server", "nginx"),
        ] {
            #expect(hidden(name, value) == value, "\(name)")
        }
        #expect(
            HeaderCredentials.harmless.allSatisfy { $0 == $0.lowercased() && !$0.contains("token") && !$0.contains("session") && !$0.contains("key") }
        )
        // A URL-valued header keeps the URL and loses its credentials.
        #expect(hidden("Location", "https://example.com/cb?state=1") == "https://example.com/cb?state=1")
        let location = hidden("location", "https://u:pw-123456@example.com/cb?code=live-code-1&state=1")
        #expect(location.hasPrefix("https://u:‹redacted") && location.contains("code=‹redacted") && location.hasSuffix("&state=1"), "\(location)")
    }

    @Test("Every cookie value is hidden, in merged lines and nameless pieces too; attributes and an Expires date stay")
    func mergedCookies() {
        let merged = hidden("Set-Cookie", "a=1; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT, merged=SECRET-2; HttpOnly, nameless-SECRET-3; Secure")
        #expect(!merged.contains("SECRET") && !merged.contains("a=1;"), "\(merged)")
        #expect(
            merged.contains("; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT, merged=‹redacted") && merged.contains("; HttpOnly, ‹redacted"),
            "\(merged)")
        let old = hidden("Set-Cookie2", #"sid="SECRET-4"; Version="1"; Path="/", other=SECRET-5"#)
        #expect(!old.contains("SECRET") && old.contains(#"; Version="1"; Path="/", other=‹redacted"#), "\(old)")
        let cookie = hidden("Cookie", "a=SECRET-6, b=SECRET-7; SECRET-8")
        #expect(!cookie.contains("SECRET"), "\(cookie)")
    }

    @Test("A header's name goes through the same redaction as its value")
    func names() {
        let token = "at-7f3k2m9q4w8e1r"
        let redactor = Redactor(secrets: [token, "client-secret-value"])
        let base64 = Data("client-secret-value".utf8).base64EncodedString()
        let shown = redactor.redact([
            Evidence.Header("X-T-" + token, "1"), Evidence.Header("X-S-" + base64, "2"),
            Evidence.Header("X-H-" + Array("client-secret-value".utf8).map { String(format: "%02x", $0) }.joined(), "3"),
        ])
        for header in shown {
            #expect(!header.name.contains(token) && !header.name.contains(base64) && !header.name.contains("636c69656e74"), "\(header.name)")
            #expect(header.name.contains("‹redacted"), "\(header.name)")
        }
    }

    @Test("Header lines are bounded: 40 kept, the rest counted; a long value cut after redaction")
    func bounded() {
        let redactor = Redactor(secrets: ["known-secret-value"])
        let many = (0..<55).map { (name: "X-Request-Id", value: "v\($0)") }
        let kept = redactor.redact(Evidence.headers(many))
        #expect(kept.count == Evidence.headerLimit + 1)
        #expect(kept.last == Evidence.Header("", "… 15 more header lines not kept"))
        let long = String(repeating: "a", count: 2000) + "known-secret-value"
        let cut = redactor.redact(Evidence.headers([(name: "Link", value: "known-secret-value " + long)]))
        #expect(cut[0].value.utf8.count < Evidence.headerValueLimit + 60)
        #expect(cut[0].value.hasPrefix("‹redacted") && cut[0].value.contains("[truncated:"))
        #expect(!cut[0].value.contains("known-secret"))
        // Redacted together, split back one a header; a value that would not split back is redacted alone.
        let mixed = redactor.redact([
            Evidence.Header("Authorization", "Bearer tok-123456789"), Evidence.Header("Server", "a known-secret-value b"),
            Evidence.Header("Via", "line\nbreak known-secret-value"), Evidence.Header("X-C", ""),
        ])
        #expect(mixed.map(\.name) == ["Authorization", "Server", "Via", "X-C"])
        #expect(mixed[0].value.hasPrefix("Bearer ‹redacted") && mixed[3].value == "")
        #expect(mixed[1].value.hasPrefix("a ‹redacted") && mixed[1].value.hasSuffix("› b"))
        #expect(mixed[2].value.hasPrefix("line\nbreak ‹redacted"))
    }

    @Test("The exchange reads request line, time, request headers, the rest, response headers; without its time when asked")
    func rendering() throws {
        let sent = try #require(Evidence.Exchange.date("2026-11-25T20:21:16.123Z"))
        let exchange = Evidence.Exchange(
            "POST https://as.example/token\n  body: grant_type=x\n  → HTTP 200", sentAt: sent, milliseconds: 12,
            requestHeaders: [Evidence.Header("Host", "as.example")],
            responseHeaders: [Evidence.Header("Content-Type", "application/json"), Evidence.Header("", "… 1 more")])
        #expect(
            exchange.rendered(times: true) == """
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
