import AppFlipReporting
import Testing

@Suite("XML escaping")
struct XMLTextTests {
    @Test("Plain text comes back as it is; markup is escaped; tabs and line breaks stay in text")
    func text() {
        #expect(XMLText.text("AF-LINK-005 MUST NOT: expected declines; observed opened") == "AF-LINK-005 MUST NOT: expected declines; observed opened")
        #expect(XMLText.text("a & b < c > d \"q\"\tx\ny") == "a &amp; b &lt; c &gt; d \"q\"\tx\ny")
        #expect(XMLText.text("cr\r") == "cr&#13;")
        #expect(XMLText.text("é 中 🔑 ｆ\u{F000}") == "é 中 🔑 ｆ\u{F000}")
    }

    @Test("Characters XML 1.0 forbids become U+FFFD, in text and attributes")
    func forbidden() {
        #expect(XMLText.text("a\u{1}b\u{0}c\u{1F}") == "a\u{FFFD}b\u{FFFD}c\u{FFFD}")
        #expect(XMLText.text("x\u{FFFE}y\u{FFFF}z") == "x\u{FFFD}y\u{FFFD}z")
        #expect(XMLText.attribute("\u{FFFF}") == "\u{FFFD}")
    }

    @Test("Attributes keep quotes, line breaks and tabs as references")
    func attribute() {
        #expect(XMLText.attribute("plain value") == "plain value")
        #expect(XMLText.attribute("say \"hi\"\n\tnow & <then>") == "say &quot;hi&quot;&#10;&#9;now &amp; &lt;then&gt;")
    }
}
