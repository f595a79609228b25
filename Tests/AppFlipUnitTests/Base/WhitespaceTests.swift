import AppFlipBase
import Foundation
import Testing

@testable import AppFlipHTTP

/// Cookie headers and case values are trimmed without Foundation: exactly what `.whitespaces` trims (tabs and Unicode space
/// separators), nothing else (line breaks, zero-width and format characters stay).
@Suite("Whitespace trimming")
struct WhitespaceTests {
    @Test("The same as Foundation's trimmingCharacters(in: .whitespaces), for every scalar Foundation trims and its neighbours")
    func sameAsFoundation() {
        // Every scalar Foundation trims alone (the space separators, tab and U+200B), found by asking it.
        let spaces = (0...0x10FFFF).compactMap(Unicode.Scalar.init).filter { String(Character($0)).trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(spaces.count >= 18)
        for scalar in spaces { #expect(String(Character(scalar)).trimmingSpaces().isEmpty, "U+\(String(scalar.value, radix: 16))") }
        let edges =
            spaces.map { String(Character($0)) } + [
                "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{200B}", "\u{FEFF}", "\u{2028}", "\u{301}", "x", "",
            ]
        let samples =
            ["", "a", "name=value", " a b ", "\t\tx\t", "\u{A0}v\u{3000}", "\u{301}a", "a\u{301}"]
            + Self.framed("a=b", left: edges, right: ["", " ", "\u{2003}", "\n", "\u{200B}"])
        for sample in samples {
            #expect(sample.trimmingSpaces() == sample.trimmingCharacters(in: .whitespaces), "\(Array(sample.unicodeScalars))")
            let framed = "<" + sample + ">"
            let sliced = framed[framed.unicodeScalars.index(after: framed.startIndex)..<framed.unicodeScalars.index(before: framed.endIndex)]
            #expect(sliced.trimmingSpaces() == sample.trimmingCharacters(in: .whitespaces))
        }
    }

    @Test("The same as Foundation's trimmingCharacters(in: .whitespacesAndNewlines), for every scalar Foundation trims")
    func spacesAndNewlinesAsFoundation() {
        let trimmed = (0...0x10FFFF).compactMap(Unicode.Scalar.init).filter {
            String(Character($0)).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }
        #expect(trimmed.count >= 24)
        for scalar in trimmed { #expect(String(Character(scalar)).trimmingSpacesAndNewlines().isEmpty, "U+\(String(scalar.value, radix: 16))") }
        let edges = trimmed.map { String(Character($0)) } + ["\u{200B}", "\u{FEFF}", "\u{301}", "x", "", "\r\n"]
        let samples =
            ["", "a", "statement.\n", "\n  a b\n\n", "\r\nx\r\n", "\u{A0}v\u{2029}"]
            + Self.framed("a b", left: edges, right: ["", " ", "\n", "\u{2028}", "\u{200B}"])
        for sample in samples {
            #expect(sample.trimmingSpacesAndNewlines() == sample.trimmingCharacters(in: .whitespacesAndNewlines), "\(Array(sample.unicodeScalars))")
        }
    }

    /// `core` between each edge and each right-hand text, and an accented letter between an edge twice.
    static func framed(_ core: String, left: [String], right: [String]) -> [String] {
        left.flatMap { edge in right.flatMap { other in [edge + core + other, other + edge + "é\u{301}" + edge] } }
    }

    @Test("HTTP's optional whitespace (spaces and tabs) is trimmed as bytes, nothing else")
    func spacesAndTabs() {
        let cases: [(String, String)] = [
            ("", ""), ("chunked", "chunked"), (" \t 12 \t", "12"), ("\u{A0}1\u{A0}", "\u{A0}1\u{A0}"),
            ("\r1\n", "\r1\n"), (" \u{301}x ", "\u{301}x"), ("\t\t", ""), (" a b ", "a b"),
        ]
        for (input, expected) in cases {
            let framed = "[" + input + "]"
            #expect(framed.dropFirst().dropLast().trimmingSpacesAndTabs() == expected, "\(input.debugDescription)")
        }
    }

    @Test("A header name byte is a tchar of RFC 9110 §5.6.2, for every byte")
    func tokenBytes() {
        let tchar = Set("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(MessageReader.isTokenByte(byte) == tchar.contains(byte), "byte \(byte)")
        }
    }
}
