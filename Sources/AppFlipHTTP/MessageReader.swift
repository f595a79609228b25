import AppFlipBase
import AppFlipSystem
import Foundation

/// Reads HTTP/1.1 messages from a byte stream within limits, for both the client and the server.
struct MessageReader {
    /// Appends the next bytes of the stream to the buffer it is given and says how many; 0 at the end of the stream.
    typealias Source = (inout [UInt8]) throws(SocketError) -> Int

    private var buffer: [UInt8] = []
    private var start = 0
    private(set) var sawEnd = false
    let limits: HTTPLimits

    init(limits: HTTPLimits) {
        self.limits = limits
    }

    struct Head {
        var startLine: String
        var headers: HTTPHeaders
    }

    private var available: Int { buffer.count - start }

    /// Bytes received and not yet consumed as part of a message.
    var bufferedByteCount: Int { available }

    /// Appends the next chunk from `source`; false at end of stream.
    private mutating func fill(_ source: Source) throws(SocketError) -> Bool {
        if sawEnd { return false }
        if start == buffer.count {
            // Everything read so far is consumed (the usual case between messages): start again at the front,
            // keeping the storage.
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 65_536, start > buffer.count / 2 {
            buffer.removeSubrange(..<start)
            start = 0
        }
        if try source(&buffer) == 0 {
            sawEnd = true
            return false
        }
        return true
    }

    private mutating func take(_ count: Int) -> ArraySlice<UInt8> {
        let slice = buffer[start..<(start + count)]
        start += count
        return slice
    }

    /// Reads a start line and headers. Nil when the stream ended cleanly before the first byte.
    mutating func readHead(_ source: Source) throws -> Head? {
        // How far past `start` the terminator search has looked. Relative, because `fill` may compact the buffer
        // and move `start`: an absolute index would then point past the data and the search would never end.
        var scanned = 0
        while true {
            if let end = headEnd(fromOffset: scanned) {
                let headBytes = take(end.headLength)
                start += end.terminatorLength
                return try headBytes.withUnsafeBufferPointer { try parseHead($0[...]) }
            }
            scanned = max(0, available - 3)
            if available > limits.maximumHeadBytes {
                throw HTTPError("the header section exceeds \(limits.maximumHeadBytes) bytes")
            }
            guard try fill(source) else {
                if available == 0 { return nil }
                throw HTTPError("the connection closed in the middle of the header section (\(available) bytes received)")
            }
        }
    }

    private func headEnd(fromOffset offset: Int) -> (headLength: Int, terminatorLength: Int)? {
        // Line feeds found with memchr: a head is read on every answer, and most of its bytes are not one.
        buffer.withUnsafeBufferPointer { bytes -> (Int, Int)? in
            guard let base = bytes.baseAddress else { return nil }
            var index = start + offset
            while index < bytes.count, let hit = memchr(base + index, 0x0A, bytes.count - index) {
                index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { return (index - start + 1, 1) }
                if index + 2 < bytes.count, bytes[index + 1] == 0x0D, bytes[index + 2] == 0x0A { return (index - start + 1, 2) }
                index += 1
            }
            return nil
        }
    }

    private func parseHead(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) throws -> Head {
        // Parsed on bytes: lines end at LF with one CR before it dropped (a lone CR stays in its line); the head is
        // text as UTF-8 when all of it is valid UTF-8, otherwise byte for byte as ISO Latin-1. Read on every answer
        // of a sign-in walk: one pass over the lines, no array of them.
        let utf8 = bytes.allSatisfy { $0 < 0x80 } || String(validating: bytes, as: UTF8.self) != nil
        func text(_ piece: Slice<UnsafeBufferPointer<UInt8>>) -> String {
            utf8 ? String(decoding: piece, as: UTF8.self) : String(String.UnicodeScalarView(piece.map { Unicode.Scalar($0) }))
        }
        var startLine: Slice<UnsafeBufferPointer<UInt8>>?
        var headers = HTTPHeaders()
        headers.fields.reserveCapacity(16)
        // An empty line counts only when a header line follows it (trailing empty lines end the head).
        var emptyLineBefore = false
        var lineNumber = 0
        var lineStart = bytes.startIndex
        while lineStart < bytes.endIndex {
            let newline = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.endIndex
            var line = bytes[lineStart..<newline]
            lineStart = newline < bytes.endIndex ? newline + 1 : newline
            if line.last == 0x0D { line = line.dropLast() }
            guard startLine != nil else {
                guard !line.isEmpty else { throw HTTPError("the message has no start line") }
                startLine = line
                continue
            }
            if line.isEmpty {
                emptyLineBefore = true
                continue
            }
            // What a malformed line holds may be a credential (an unparsed cookie, a token): the error says where the
            // line is and what is wrong with it, and quotes none of it.
            lineNumber += 1
            if emptyLineBefore { throw HTTPError("an empty line inside the header section, before header line \(lineNumber)") }
            if line.first == 0x20 || line.first == 0x09 {
                throw HTTPError(
                    "obsolete line folding in the header section: header line \(lineNumber) (\(line.count) bytes) starts with white space")
            }
            guard let colon = line.firstIndex(of: 0x3A) else {
                throw HTTPError("header line \(lineNumber) (\(line.count) bytes) has no ':'")
            }
            let name = line[..<colon]
            guard !name.isEmpty else { throw HTTPError("header line \(lineNumber) has an empty name") }
            if let bad = name.firstIndex(where: { !Self.isTokenByte($0) }) {
                throw HTTPError(
                    "header line \(lineNumber) has an invalid name: byte \(bad - name.startIndex + 1) of the name "
                        + "(\(Self.describe(name[bad]))) is not a token character")
            }
            var value = line[(colon + 1)...]
            while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
            while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
            headers.append(text(name), text(value))
            if headers.fields.count > limits.maximumHeaderCount {
                throw HTTPError("more than \(limits.maximumHeaderCount) header fields")
            }
        }
        guard let startLine else { throw HTTPError("the message has no start line") }
        return Head(startLine: text(startLine), headers: headers)
    }

    /// A `tchar` of RFC 9110 §5.6.2: visible ASCII except the delimiters.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        byte < 0x40
            ? tokenBytesBelow64 & (1 << UInt64(byte)) != 0
            : byte < 0x80 && tokenBytesFrom64 & (1 << UInt64(byte - 0x40)) != 0
    }

    /// `isTokenByte` as two bit sets (bytes 0-63, 64-127): '!' '#'-'\'' '*' '+' '-' '.' digits, then letters and
    /// '^' '_' '`' '|' '~'. Constants, so a look-up is two instructions and no lazy initialisation (WhitespaceTests
    /// checks every byte against the definition).
    private static let tokenBytesBelow64: UInt64 = 0x03FF_6CFA_0000_0000
    private static let tokenBytesFrom64: UInt64 = 0x57FF_FFFF_C7FF_FFFE

    /// A status or chunk-size line quoted (at most 80 characters, control characters escaped).
    static func show(_ line: Substring) -> String {
        let cut = line.prefix(80)
        return "\"" + cut.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
            + (line.count > 80 ? "…" : "") + "\""
    }

    /// A byte named without showing text: `0x20, a space`, `0x3B, ';'`.
    static func describe(_ byte: UInt8) -> String {
        let hex = (byte < 0x10 ? "0x0" : "0x") + String(byte, radix: 16, uppercase: true)
        switch byte {
        case 0x20: return hex + ", a space"
        case 0x09: return hex + ", a tab"
        case 0x21...0x7E: return hex + ", '" + String(UnicodeScalar(byte)) + "'"
        default: return hex
        }
    }

    enum Framing {
        case none
        case length(Int)
        case chunked
        case untilClose
    }

    /// Decides how the body is delimited (RFC 9112 §6.3).
    static func framing(_ headers: HTTPHeaders, isResponse: Bool) throws -> Framing {
        // The usual answer, read without splitting: no Transfer-Encoding and one Content-Length of digits alone.
        if !headers.fields.contains(where: { HTTPHeaders.sameName($0.name, "Transfer-Encoding") }) {
            let lengths = headers.values("Content-Length")
            if lengths.count == 1, let only = lengths.first, !only.isEmpty, only.utf8.count <= 18,
                only.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let length = Int(only)
            {
                return .length(length)
            }
        }
        let codings = headers.values("Transfer-Encoding").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingSpacesAndTabs().lowercased() }
        if !codings.isEmpty {
            // RFC 9112 §6.2: a sender MUST NOT send Content-Length with Transfer-Encoding; §6.3: such a message is
            // a smuggling or splitting attempt and is handled as an error, not read either way.
            if !headers.values("Content-Length").isEmpty {
                throw HTTPError("both Transfer-Encoding (\(codings.joined(separator: ", "))) and Content-Length: the message's framing is ambiguous")
            }
            guard codings.last == "chunked" else {
                if isResponse { return .untilClose }
                throw HTTPError("Transfer-Encoding \(codings.joined(separator: ", ")) without chunked")
            }
            return .chunked
        }
        let lengths = Set(
            headers.values("Content-Length").flatMap { $0.split(separator: ",") }
                .map { $0.trimmingSpacesAndTabs() })
        if lengths.count > 1 { throw HTTPError("conflicting Content-Length values: \(lengths.sorted().joined(separator: ", "))") }
        if let text = lengths.first {
            guard let length = Int(text), length >= 0, text.allSatisfy(\.isASCII) else {
                throw HTTPError("invalid Content-Length: \(text)")
            }
            return .length(length)
        }
        return isResponse ? .untilClose : .none
    }

    /// Reads a body with the given framing, within the body limit.
    mutating func readBody(_ framing: Framing, _ source: Source) throws -> [UInt8] {
        switch framing {
        case .none:
            return []
        case .length(let length):
            guard length <= limits.maximumBodyBytes else {
                throw HTTPError("the body is \(length) bytes; the limit is \(limits.maximumBodyBytes)")
            }
            while available < length {
                guard try fill(source) else {
                    throw HTTPError("the connection closed after \(available) of \(length) body bytes")
                }
            }
            return Array(take(length))
        case .untilClose:
            while try fill(source) {
                if available > limits.maximumBodyBytes {
                    throw HTTPError("the body exceeds \(limits.maximumBodyBytes) bytes")
                }
            }
            return Array(take(available))
        case .chunked:
            return try readChunked(source)
        }
    }

    private mutating func readLine(_ source: Source, what: String) throws -> String {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                var line = take(newline - start)
                start += 1
                if line.last == 0x0D { line = line.dropLast() }
                return String(decoding: line, as: UTF8.self)
            }
            if available > 4096 { throw HTTPError("chunked encoding: \(what) line longer than 4096 bytes") }
            guard try fill(source) else { throw HTTPError("chunked encoding: the connection closed before the \(what)") }
        }
    }

    private mutating func readChunked(_ source: Source) throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let sizeLine = try readLine(source, what: "chunk size")
            let sizeText = sizeLine.split(separator: ";", maxSplits: 1).first.map { $0.trimmingSpacesAndTabs() } ?? ""
            guard !sizeText.isEmpty, sizeText.count <= 15, let size = Int(sizeText, radix: 16), size >= 0 else {
                throw HTTPError("chunked encoding: invalid chunk size \(Self.show(Substring(sizeLine)))")
            }
            if size == 0 {
                while try !readLine(source, what: "trailer").isEmpty {}
                return body
            }
            guard body.count + size <= limits.maximumBodyBytes else {
                throw HTTPError("the body exceeds \(limits.maximumBodyBytes) bytes")
            }
            while available < size + 2 {
                guard try fill(source) else { throw HTTPError("chunked encoding: the connection closed inside a chunk") }
            }
            body += take(size)
            let terminator = take(2)
            guard terminator.elementsEqual([0x0D, 0x0A]) || terminator.first == 0x0A else {
                throw HTTPError("chunked encoding: a chunk is not followed by CRLF")
            }
            if terminator.first == 0x0A { start -= 1 }
        }
    }
}
