import Foundation

/// Where a report's bytes go while it is written: memory, or a file descriptor through a 64 KiB buffer, so a report
/// of 100,000 cases is never held whole. A write error is kept (the first one) and every later write is dropped;
/// `finish()` reports it.
package final class ReportSink {
    /// Bytes not yet written to the descriptor (all of them, for a sink in memory).
    package var buffer: [UInt8] = []
    private let fd: Int32?
    private let path: String
    private(set) var failure: ReportFiles.Failure?
    private static let flushSize = 1 << 16

    /// A sink that keeps everything in memory (`buffer`).
    package init() {
        fd = nil
        path = ""
    }

    /// A sink writing to `fd` (not closed here); `path` names the file in an error.
    package init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
        buffer.reserveCapacity(Self.flushSize * 2)
    }

    package func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        flushIfFull()
    }

    /// Appends what `piece` holds and empties it (its capacity kept for the next piece).
    package func take(_ piece: inout ReportBytes) {
        piece.bytes.withUnsafeBytes { buffer.append(contentsOf: $0) }
        piece.removeAll()
        flushIfFull()
    }

    /// Writes the buffer out once it holds 64 KiB (a sink in memory keeps it).
    package func flushIfFull() {
        if fd != nil && buffer.count >= Self.flushSize { flush() }
    }

    /// Writes what is buffered; a short write (a full disk) is kept as the sink's failure.
    package func flush() {
        guard let fd else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil else { return }
        var offset = 0
        while offset < buffer.count {
            let written = buffer[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                failure = ReportFiles.Failure(message: "cannot write \(path): \(String(cString: strerror(errno)))")
                return
            }
            offset += written
        }
    }

    /// Writes what is left; throws the first write error.
    package func finish() throws(ReportFiles.Failure) {
        flush()
        if let failure { throw failure }
    }

    /// The bytes of a sink in memory as text.
    package var text: String { String(decoding: buffer, as: UTF8.self) }
}
