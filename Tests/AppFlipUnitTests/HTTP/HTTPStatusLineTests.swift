import AppFlipHTTP
import AppFlipTestSupport
import Testing

/// A status line read on bytes, against the reading it replaced (on `String` slices and `Int(_:)`, kept below): the
/// same status, reason and version, or none, on 20,000 seeded lines.
@Suite("Status line")
struct HTTPStatusLineTests {
    /// The status line as `HTTPClient` read it before it read bytes.
    static func sliceReading(_ line: String) -> (Int, String, Bool)? {
        guard let firstSpace = line.utf8.firstIndex(of: 0x20) else { return nil }
        let version = line[..<firstSpace]
        let rest = line[line.utf8.index(after: firstSpace)...]
        let secondSpace = rest.utf8.firstIndex(of: 0x20)
        let code = rest[..<(secondSpace ?? rest.endIndex)]
        guard version.utf8.count == 8, version.utf8.starts(with: "HTTP/1.".utf8), version.utf8.last.map({ (0x30...0x39).contains($0) }) == true,
            code.utf8.count == 3, let status = Int(code), (100...999).contains(status)
        else { return nil }
        return (status, secondSpace.map { String(rest[rest.utf8.index(after: $0)...]) } ?? "", version.utf8.elementsEqual("HTTP/1.1".utf8))
    }

    static func describe(_ parts: (Int, String, Bool)?) -> String {
        guard let (status, reason, isHTTP11) = parts else { return "not a status line" }
        return "\(status) \(reason.debugDescription) \(isHTTP11)"
    }

    @Test("The same status, reason and version, or none, as the slice reading on 20,000 seeded lines")
    func oracle() {
        let pieces = [
            "HTTP/1.1", "HTTP/1.0", "HTTP/1.9", "HTTP/2", "HTTP/1.x", "http/1.1", "HTTP/1.", " ", "  ", "200", "204", "099", "100",
            "999", "1000", "+20", "-20", "20", "OK", "Not Found", "\u{E9}", "\u{0663}", "\t", "\r", "0", "5", "x", "\u{301}",
        ]
        var random = Mutator(seed: 0x5354_4154)
        for _ in 0..<20_000 {
            let line = (0..<random.below(6)).map { _ in pieces[random.below(pieces.count)] }.joined()
            let bytes = Self.describe((try? HTTPStatusLine(parsing: line)).map { ($0.status, $0.reason, $0.isHTTP11) })
            let slices = Self.describe(Self.sliceReading(line))
            guard bytes == slices else {
                Issue.record("\(line.debugDescription): \(bytes), the slice reading \(slices)")
                return
            }
        }
    }

    @Test("Lines as servers send them, and lines that are not status lines")
    func examples() throws {
        let ok = try HTTPStatusLine(parsing: "HTTP/1.1 200 OK")
        #expect(ok == HTTPStatusLine(status: 200, reason: "OK", isHTTP11: true))
        #expect(try HTTPStatusLine(parsing: "HTTP/1.0 302") == HTTPStatusLine(status: 302, reason: "", isHTTP11: false))
        #expect(try HTTPStatusLine(parsing: "HTTP/1.1 404 ") == HTTPStatusLine(status: 404, reason: "", isHTTP11: true))
        #expect(try HTTPStatusLine(parsing: "HTTP/1.1 500 Internal  Server Error").reason == "Internal  Server Error")
        let error = #expect(throws: HTTPError.self) { try HTTPStatusLine(parsing: "HTTP/1.1 2OO\r") }
        #expect(error?.message == "invalid status line: \"HTTP/1.1 2OO\\u{d}\"")
        for line in ["HTTP/2 200 OK", "HTTP/1.1 099 Low", "HTTP/1.1 +20 Sign", "HTTP/1.1 2000 Long", "HTTP/1.1\t200 Tab", "HTTP/1.1 20"] {
            #expect(throws: HTTPError.self, "\(line)") { try HTTPStatusLine(parsing: line) }
        }
    }
}
