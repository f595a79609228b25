import AppFlipSystem
import Foundation

/// A small HTTP/1.1 server: a thread per connection (bounded), keep-alive, bounded requests. For the reference
/// server and tests; it listens on the address given and nowhere else.
package final class HTTPServer: @unchecked Sendable {
    package typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    private let listener: TCPListener
    private let handler: Handler
    private let limits: HTTPLimits
    private let connections = DispatchSemaphore(value: 64)
    private let stopped = NSLock()
    private var isStopped = false

    package var port: Int { listener.port }
    package var host: String { listener.host }

    package init(host: String = "127.0.0.1", port: Int = 0, limits: HTTPLimits = HTTPLimits(), handler: @escaping Handler) throws(SocketError) {
        listener = try TCPListener(host: host, port: port)
        self.limits = limits
        self.handler = handler
        Platform.ignoreSIGPIPE()
    }

    /// Accepts connections on a background thread until `stop()`.
    package func start() {
        let thread = Thread { [self] in
            while let socket = listener.accept() {
                connections.wait()
                let worker = Thread { [self] in
                    defer { connections.signal() }
                    serve(socket)
                }
                worker.start()
            }
        }
        thread.start()
    }

    /// Serves on the calling thread until `stop()` (for a foreground server process).
    package func run() {
        start()
        while !stopped.withLock({ isStopped }) { Thread.sleep(forTimeInterval: 0.2) }
    }

    package func stop() {
        stopped.withLock { isStopped = true }
        listener.close()
    }

    private func serve(_ socket: TCPSocket) {
        defer { socket.close() }
        var reader = MessageReader(limits: limits)
        while !stopped.withLock({ isStopped }) {
            let deadline = Platform.monotonicSeconds() + 10
            let source: MessageReader.Source = { (buffer: inout [UInt8]) throws(SocketError) -> Int in
                try socket.read(appendingTo: &buffer, deadline: deadline)
            }
            let response: HTTPResponse
            var keepAlive = true
            do {
                guard let head = try reader.readHead(source) else { return }
                let parts = head.startLine.split(separator: " ", omittingEmptySubsequences: false)
                guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else {
                    response = HTTPResponse(status: 400, body: Array("malformed request line\n".utf8))
                    keepAlive = false
                    try? socket.write(response.serialized(), deadline: deadline)
                    return
                }
                let body = try reader.readBody(try MessageReader.framing(head.headers, isResponse: false), source)
                let request = HTTPRequest(method: String(parts[0]), target: String(parts[1]), headers: head.headers, body: body)
                keepAlive = parts[2] == "HTTP/1.1" && request.headers["Connection"]?.lowercased() != "close"
                var answer = handler(request)
                if !keepAlive { answer.headers.append("Connection", "close") }
                response = answer
            } catch is SocketError {
                return
            } catch {
                let problem = HTTPResponse(status: 400, headers: HTTPHeaders([("Connection", "close")]), body: Array("\(error)\n".utf8))
                try? socket.write(problem.serialized(), deadline: deadline)
                return
            }
            do {
                try socket.write(response.serialized(), deadline: deadline)
            } catch {
                return
            }
            if !keepAlive { return }
        }
    }
}
