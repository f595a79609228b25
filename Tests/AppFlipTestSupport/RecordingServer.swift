import AppFlipBase
import AppFlipSystem
import Foundation

/// A raw TCP server on loopback that records exactly what it receives and answers with scripted raw bytes.
///
/// It reads until the request head and any Content-Length body have arrived, then applies the script for that
/// request: reply with bytes (and keep the connection or close it), close without a word, or stall.
package final class RecordingServer: @unchecked Sendable {
    package enum Reply: Sendable {
        case bytes([UInt8], close: Bool = false)
        case closeWithoutAnswer
        case stall(seconds: Double)
        /// Sends these bytes, then resets the connection (RST, not an orderly close).
        case reset(after: [UInt8])
    }

    package let port: Int
    private let listener: TCPListener
    /// The requests received and the connections accepted.
    private let log = Locked((received: [[UInt8]](), connections: 0))
    private let script: @Sendable ([UInt8]) -> Reply

    package init(script: @escaping @Sendable ([UInt8]) -> Reply) throws {
        listener = try TCPListener(host: "127.0.0.1", port: 0)
        port = listener.port
        self.script = script
        Platform.ignoreSIGPIPE()
        let thread = Thread { [self] in
            while let socket = listener.accept() {
                log.withLock { $0.connections += 1 }
                let worker = Thread { [self] in serve(socket) }
                worker.start()
            }
        }
        thread.start()
    }

    /// A canned `200 OK` with a body.
    package static func ok(_ body: String, headers: String = "Content-Type: text/plain\r\n") -> Reply {
        .bytes(Array("HTTP/1.1 200 OK\r\n\(headers)Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8))
    }

    package var requests: [[UInt8]] { log.withLock { $0.received } }
    package var connectionCount: Int { log.withLock { $0.connections } }

    package func stop() { listener.close() }

    private func serve(_ socket: TCPSocket) {
        defer { socket.close() }
        var buffer: [UInt8] = []
        while true {
            let deadline = Platform.monotonicSeconds() + 10
            guard let request = readRequest(socket, &buffer, deadline: deadline) else { return }
            log.withLock { $0.received.append(request) }
            switch script(request) {
            case .bytes(let bytes, let close):
                try? socket.write(bytes, deadline: deadline)
                if close { return }
            case .closeWithoutAnswer:
                return
            case .stall(let seconds):
                Thread.sleep(forTimeInterval: seconds)
                return
            case .reset(let bytes):
                try? socket.write(bytes, deadline: deadline)
                var linger = Foundation.linger(l_onoff: 1, l_linger: 0)
                setsockopt(socket.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Foundation.linger>.size))
                return
            }
        }
    }

    private func readRequest(_ socket: TCPSocket, _ buffer: inout [UInt8], deadline: Double) -> [UInt8]? {
        while true {
            if let end = Self.find([0x0D, 0x0A, 0x0D, 0x0A], in: buffer) {
                let head = String(decoding: buffer[..<end], as: UTF8.self).lowercased()
                let length =
                    head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if buffer.count >= end + 4 + length {
                    let request = Array(buffer[..<(end + 4 + length)])
                    buffer.removeSubrange(..<(end + 4 + length))
                    return request
                }
            }
            guard let chunk = try? socket.read(deadline: deadline), !chunk.isEmpty else { return nil }
            buffer += chunk
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }
}
