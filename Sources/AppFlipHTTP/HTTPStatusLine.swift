/// A response's status line (RFC 9112 §4): `HTTP/1.` and a digit, a space, three digits from 100 to 999, and the reason
/// after a second space as sent (empty without one). Only HTTP/1.x is spoken here.
package struct HTTPStatusLine: Sendable, Equatable {
    package var status: Int
    package var reason: String
    /// Whether the version is exactly HTTP/1.1 (persistent connections by default).
    package var isHTTP11: Bool

    package init(status: Int, reason: String, isHTTP11: Bool) {
        self.status = status
        self.reason = reason
        self.isHTTP11 = isHTTP11
    }

    /// Reads `line` on its bytes (every answer has one); throws naming the line, quoted and cut, when it is not one.
    package init(parsing line: String) throws {
        var bytes = line
        guard let (status, reasonStart, isHTTP11) = bytes.withUTF8(Self.read) else {
            throw HTTPError("invalid status line: \(MessageReader.show(Substring(line)))")
        }
        self.status = status
        self.reason = reasonStart.map { String(line[line.utf8.index(line.startIndex, offsetBy: $0)...]) } ?? ""
        self.isHTTP11 = isHTTP11
    }

    /// The status, where the reason starts (nil without a second space) and whether it is HTTP/1.1; nil when the
    /// bytes are not a status line. The version is the eight bytes before the first space, the code the three
    /// after it, and a second space or the end follows them.
    private static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, Int?, Bool)? {
        func digit(_ index: Int) -> Int? {
            let byte = bytes[index]
            return (0x30...0x39).contains(byte) ? Int(byte - 0x30) : nil
        }
        guard bytes.count >= 12, bytes[8] == 0x20, bytes[..<7].elementsEqual("HTTP/1.".utf8),
            digit(7) != nil, let hundreds = digit(9), hundreds > 0, let tens = digit(10), let ones = digit(11),
            bytes.count == 12 || bytes[12] == 0x20
        else { return nil }
        return (hundreds * 100 + tens * 10 + ones, bytes.count > 12 ? 13 : nil, bytes[7] == 0x31)
    }
}
