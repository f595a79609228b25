import Foundation
import Testing

@testable import AppFlipHTTP

/// `Expires` read by RFC 6265 §5.1.1's algorithm, as browsers read it.
@Suite("Cookie dates")
struct CookieDateTests {
    private let expected = Date(timeIntervalSince1970: 1_445_412_480)  // 2015-10-21T07:28:00Z

    @Test("RFC 1123, RFC 850 and asctime forms, and what browsers accept besides, read as the same instant")
    func forms() {
        for text in [
            "Wed, 21 Oct 2015 07:28:00 GMT", "Wednesday, 21-Oct-15 07:28:00 GMT", "Wed Oct 21 07:28:00 2015", "21 october 2015 7:28:0",
            "Wed, 21-OCT-2015 07:28:00 UTC", "2015 Oct 21 07:28:00",
        ] {
            #expect(CookieDate.parse(text) == expected, "\(text)")
        }
        #expect(CookieDate.parse("Thu, 01 Jan 70 00:00:01 GMT") == Date(timeIntervalSince1970: 1), "70-99 are 19xx")
        #expect(CookieDate.parse("Sat, 01 Jan 69 00:00:00 GMT") == Date(timeIntervalSince1970: 3_124_224_000), "0-69 are 20xx")
    }

    @Test("A part missing or out of range, or a day that does not exist, is no date (the cookie stays a session cookie)")
    func refused() {
        for text in [
            "", "Wed, 21 Oct 2015", "21 Oct 07:28:00", "Wed, 32 Oct 2015 07:28:00 GMT", "Wed, 21 Oct 2015 24:00:00 GMT",
            "Wed, 21 Oct 1600 07:28:00 GMT", "Mon, 31 Feb 2015 07:28:00 GMT", "Wed, 21 Foo 2015 07:28:00 GMT", "0",
        ] {
            #expect(CookieDate.parse(text) == nil, "\(text)")
        }
    }
}
