import Foundation

/// Lines from a file descriptor (standard input), each kept to a bound: a line longer than `limit` bytes is cut
/// there and marked, the rest of it read and dropped, so no input can make one line cost more than `limit` bytes.
struct BoundedLines {
    struct Line {
        var text: String
        /// The line was longer than the limit; `text` holds its first `limit` bytes.
        var cut: Bool
    }

    let limit: Int
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var ended = false

    init(descriptor: Int32 = 0, limit: Int) {
        self.descriptor = descriptor
        self.limit = limit
    }

    /// The next line without its line end, or nil at the end of the input.
    mutating func next() -> Line? {
        var kept: [UInt8] = []
        var cut = false
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                take(buffer[..<newline], into: &kept, cut: &cut)
                buffer.removeSubrange(...newline)
                return Self.line(kept, cut: cut)
            }
            take(buffer[...], into: &kept, cut: &cut)
            buffer.removeAll(keepingCapacity: true)
            if ended { return kept.isEmpty && !cut ? nil : Self.line(kept, cut: cut) }
            fill()
        }
    }

    private func take(_ bytes: ArraySlice<UInt8>, into kept: inout [UInt8], cut: inout Bool) {
        let room = max(0, limit - kept.count)
        kept.append(contentsOf: bytes.prefix(room))
        if bytes.count > room { cut = true }
    }

    private mutating func fill() {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
                return
            }
            if count < 0, errno == EINTR { continue }
            ended = true
            return
        }
    }

    private static func line(_ bytes: [UInt8], cut: Bool) -> Line {
        let trimmed = bytes.last == 0x0D ? Array(bytes.dropLast()) : bytes
        return Line(text: String(decoding: trimmed, as: UTF8.self), cut: cut)
    }
}
