/// An HTTP/1.1 request, written exactly as given: the request target goes on the wire byte for byte.
package struct HTTPRequest: Sendable, Hashable {
    package var method: String
    /// The request target as sent: `/authorize?client_id=a&client_id=b&x=%ZZ`. Never normalized or re-encoded.
    package var target: String
    package var headers: HTTPHeaders
    package var body: [UInt8]

    package init(method: String, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }

    /// The bytes on the wire. `Host` is added first when absent; `Content-Length` when there is a body and no
    /// framing header.
    package func serialized(host: String) -> [UInt8] {
        // Written as bytes into one buffer (every request of a run passes here): no interpolated string, no copy.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(
            64 + method.utf8.count + target.utf8.count + host.utf8.count + body.count
                + headers.fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 })
        func line(_ name: String, _ value: String) {
            bytes += name.utf8
            bytes += ": ".utf8
            bytes += value.utf8
            bytes += "\r\n".utf8
        }
        bytes += method.utf8
        bytes.append(0x20)
        bytes += target.utf8
        bytes += " HTTP/1.1\r\n".utf8
        if headers["Host"] == nil { line("Host", host) }
        for field in headers { line(field.name, field.value) }
        if !body.isEmpty, headers["Content-Length"] == nil, headers["Transfer-Encoding"] == nil { line("Content-Length", String(body.count)) }
        bytes += "\r\n".utf8
        bytes += body
        return bytes
    }

    /// True when a server may leave part of this request unread, so that what it leaves would be read as the start
    /// of the next request on the connection: a body on a method that gives content no meaning (RFC 9110 §9.3:
    /// GET, HEAD, DELETE, OPTIONS, TRACE, CONNECT), or framing the request sets by hand (`Content-Length`,
    /// `Transfer-Encoding`). Such a request goes on a connection of its own (`HTTPClient.sendAlone`).
    package var mayDesync: Bool {
        if !body.isEmpty, ["GET", "HEAD", "DELETE", "OPTIONS", "TRACE", "CONNECT"].contains(method.uppercased()) { return true }
        return headers["Content-Length"] != nil || headers["Transfer-Encoding"] != nil
    }

    /// The header lines `serialized(host:)` writes, in its order: what a report shows as sent.
    package func headerLines(host: String) -> [(name: String, value: String)] {
        var lines: [(name: String, value: String)] = []
        if headers["Host"] == nil { lines.append(("Host", host)) }
        for field in headers { lines.append((field.name, field.value)) }
        if !body.isEmpty, headers["Content-Length"] == nil, headers["Transfer-Encoding"] == nil {
            lines.append(("Content-Length", String(body.count)))
        }
        return lines
    }

    /// Why the request cannot be written as one request (a control character or a space in its method or target, a
    /// control character in a header): written as is, it would end the line and inject headers or a second request
    /// of the sender's choosing (a sign-in form's action of `/x&#13;&#10;Host: …`). Nil when it is safe to write.
    package var injectionProblem: String? {
        if let found = Self.firstForbidden(method, spaceForbidden: true, tabAllowed: false) {
            return "the method holds \(Self.name(found.byte)) at byte \(found.offset + 1)"
        }
        if let found = Self.firstForbidden(target, spaceForbidden: true, tabAllowed: false) {
            return "the request target holds \(Self.name(found.byte)) at byte \(found.offset + 1), which would end the request line"
        }
        for field in headers {
            if let found = Self.firstForbidden(field.name, spaceForbidden: false, tabAllowed: false) {
                return "the header name \(field.name.debugDescription) holds \(Self.name(found.byte))"
            }
            if let found = Self.firstForbidden(field.value, spaceForbidden: false, tabAllowed: true) {
                return "the \(field.name) header's value holds \(Self.name(found.byte)) at byte \(found.offset + 1), which would end the header line"
            }
        }
        return nil
    }

    /// The first control character (and space, or not tab, as asked) in `text`, read as its UTF-8 bytes in place:
    /// every request of a run passes here.
    private static func firstForbidden(_ text: String, spaceForbidden: Bool, tabAllowed: Bool) -> (offset: Int, byte: UInt8)? {
        var text = text
        return text.withUTF8 { bytes -> (offset: Int, byte: UInt8)? in
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte <= 0x20 || byte == 0x7F else { continue }
                if byte == 0x20, !spaceForbidden { continue }
                if byte == 0x09, tabAllowed { continue }
                return (index, byte)
            }
            return nil
        }
    }

    private static func name(_ byte: UInt8) -> String {
        switch byte {
        case 0x0D: "CR"
        case 0x0A: "LF"
        case 0x20: "a space"
        case 0x00: "NUL"
        default: "control character 0x" + String(byte, radix: 16, uppercase: true)
        }
    }

    /// The path part of the target (before `?`).
    package var path: Substring { target[..<(questionMark ?? target.endIndex)] }

    /// The raw query (after the first `?`), or nil.
    package var query: Substring? {
        guard let mark = questionMark else { return nil }
        return target[target.index(after: mark)...]
    }

    /// The first character of the target that is `?`. Found as a byte (every request's target is read for it, and a
    /// character-by-character search of a long query costs thousands of instructions): a `?` byte with ASCII on both
    /// sides is a character of its own, since only non-ASCII scalars join a character to the next (a prefix) or the
    /// one before (a combining mark). Any other target is searched character by character.
    private var questionMark: String.Index? {
        let bytes = target.utf8
        guard let mark = bytes.firstIndex(of: UInt8(ascii: "?")) else { return nil }
        let after = bytes.index(after: mark)
        let asciiBefore = mark == bytes.startIndex || bytes[bytes.index(before: mark)] < 0x80
        let asciiAfter = after == bytes.endIndex || bytes[after] < 0x80
        return asciiBefore && asciiAfter ? mark : target.firstIndex(of: "?")
    }
}
