import AppFlipBase
import AppFlipSystem
import AppFlipTLS
import Foundation

/// A small HTTP/1.1 server, over TLS when given an identity: a thread per connection (bounded), keep-alive, bounded requests. For the reference
/// server, the native-client profile's test authorization server and tests; it listens on the address given and
/// nowhere else. A peer cannot hold it: when every place is taken, the connection that has waited longest for a
/// request (at least `evictableAfter` seconds: an idle keep-alive, a handshake or a head that does not come) is closed
/// to make room, so connections held open on purpose (slowloris) cannot lock a client out; with none such, the new
/// connection is answered 503 and closed at once (the accept loop never waits long). A connection idle past
/// `idleTimeout` is closed.
package final class HTTPServer: Sendable {
    package typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// How much a peer may hold of the server.
    package struct Capacity: Sendable, Hashable {
        /// Connections served at once; the next is answered 503 and closed.
        package var maximumConnections: Int
        /// Seconds a connection may wait, or take, to send the head of its next request.
        package var idleTimeout: Double
        /// Seconds a connection must have waited for a request before a new one may take its place when all are
        /// taken: long enough that a client between two requests of an exchange keeps its connection.
        package var evictableAfter: Double

        package init(maximumConnections: Int = 64, idleTimeout: Double = 10, evictableAfter: Double = 0.5) {
            self.maximumConnections = maximumConnections
            self.idleTimeout = idleTimeout
            self.evictableAfter = evictableAfter
        }
    }

    /// What the server refused, counted for whoever must say why (the test authorization server's app).
    package struct Refusals: Sendable, Hashable {
        /// Connections answered 503 because `maximumConnections` were open.
        package var busy = 0
        /// Requests refused for a limit (a body or head too large, malformed framing), each with the reason.
        package var requests: [String] = []
        /// Connections closed for idling past `idleTimeout`.
        package var idle = 0
        /// Connections closed, while waiting for a request, to make room for a new one.
        package var evicted = 0
        /// TLS handshakes that did not complete (a client that refused the certificate ends it with an alert), each
        /// with OpenSSL's reason: the first `keptHandshakeReasons`, and how many in all.
        package var handshakes: [String] = []
        package var failedHandshakes = 0
        /// TLS handshakes that completed: what a client that accepted the certificate did, request or not.
        package var completedHandshakes = 0
        package static let keptHandshakeReasons = 16
    }

    private let listener: TCPListener
    private let handler: Handler
    private let limits: HTTPLimits
    private let capacity: Capacity
    /// Set for https: the certificate every connection's handshake presents.
    private let identity: TLSServerIdentity?
    private let connections: DispatchSemaphore
    /// What the accepting thread and the connections' workers share.
    private struct State {
        var isStopped = false
        var refused = Refusals()
        /// TLS handshakes under way: begun (the connection accepted, the certificate about to be sent) and not
        /// concluded.
        var handshaking = 0
        /// The connections being served, each with when it began waiting for its next request (nil while a request
        /// is handled): what a new connection may take the place of.
        var open: [ObjectIdentifier: (socket: TCPSocket, waitingSince: Double?)] = [:]
    }

    private let state = Locked(State())

    /// What the server refused so far.
    package var refusals: Refusals { state.withLock { $0.refused } }

    /// What the server refused once every handshake under way has concluded (at most `timeout` seconds): a client
    /// that refuses the certificate ends its handshake with an alert and may report so before this server has read
    /// the alert, so a count taken at once could miss it.
    package func refusalsSettled(timeout: Double) -> Refusals {
        let deadline = Platform.monotonicSeconds() + timeout
        while state.withLock({ $0.handshaking }) > 0, Platform.monotonicSeconds() < deadline { Thread.sleep(forTimeInterval: 0.002) }
        return refusals
    }

    package var port: Int { listener.port }
    /// With TLS: how requests that arrive in plain text on the same port are answered (nil: they are not; what
    /// `appflip-reference serve --defect` shows of a deployment that serves http beside https).
    private let plainHandler: Handler?

    /// `https` when the server speaks TLS, else `http`.
    package var scheme: String { identity == nil ? "http" : "https" }
    package var host: String { listener.host }

    package init(
        host: String = "127.0.0.1", port: Int = 0, limits: HTTPLimits = HTTPLimits(), capacity: Capacity = Capacity(),
        tls identity: TLSServerIdentity? = nil, plainHandler: Handler? = nil, handler: @escaping Handler
    ) throws(SocketError) {
        listener = try TCPListener(host: host, port: port)
        self.plainHandler = identity == nil ? nil : plainHandler
        self.limits = limits
        self.capacity = capacity
        self.identity = identity
        connections = DispatchSemaphore(value: capacity.maximumConnections)
        self.handler = handler
        Platform.ignoreSIGPIPE()
    }

    /// Accepts connections on a background thread until `stop()`.
    package func start() {
        let thread = Thread { [self] in
            while let socket = listener.accept() {
                // Full: the longest-waiting idle connection makes room, if there is one; its worker ends at once.
                guard
                    connections.wait(timeout: .now()) == .success
                        || (evictLongestWaiting() && connections.wait(timeout: .now() + 2) == .success)
                else {
                    // Full: said at once, never waited for, so one peer's open connections cannot stall another's.
                    state.withLock { $0.refused.busy += 1 }
                    // Over TLS nothing can be said before a handshake this server has no room for: closed at once.
                    if identity != nil {
                        socket.close()
                        continue
                    }
                    let busy = HTTPResponse(
                        status: 503, headers: HTTPHeaders([("Connection", "close"), ("Retry-After", "1")]),
                        body: Array("too many open connections\n".utf8))
                    try? socket.write(busy.serialized(), deadline: Platform.monotonicSeconds() + 1)
                    socket.close()
                    continue
                }
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
        while !state.withLock({ $0.isStopped }) { Thread.sleep(forTimeInterval: 0.2) }
    }

    package func stop() {
        state.withLock { $0.isStopped = true }
        listener.close()
    }

    /// Shuts down the connection that has waited longest for a request, if one has waited `evictableAfter` seconds.
    private func evictLongestWaiting() -> Bool {
        state.withLock { state in
            let now = Platform.monotonicSeconds()
            let waiting = state.open.compactMap { key, entry in entry.waitingSince.map { (key, entry.socket, $0) } }
            guard let oldest = waiting.min(by: { $0.2 < $1.2 }), now - oldest.2 >= capacity.evictableAfter else { return false }
            state.open[oldest.0]?.waitingSince = nil
            oldest.1.shutDown()
            state.refused.evicted += 1
            return true
        }
    }

    /// Marks the connection as waiting for a request (from now), or as handling one.
    private func waiting(_ plain: TCPSocket, _ isWaiting: Bool) {
        state.withLock { $0.open[ObjectIdentifier(plain)]?.waitingSince = isWaiting ? Platform.monotonicSeconds() : nil }
    }

    private func serve(_ plain: TCPSocket) {
        state.withLock { $0.open[ObjectIdentifier(plain)] = (plain, Platform.monotonicSeconds()) }
        defer { state.withLock { $0.open[ObjectIdentifier(plain)] = nil } }
        let socket: any ByteStream
        // A server that also answers plain http on its TLS port (a broken deployment, `plainHandler`): whatever does not
        // start with a TLS handshake record (0x16) is read as plain text.
        let plainText = plainHandler != nil && plain.peekFirstByte(deadline: Platform.monotonicSeconds() + capacity.idleTimeout) != 0x16
        if let identity, !plainText {
            state.withLock { $0.handshaking += 1 }
            do {
                socket = try TLSStream.accept(plain, identity: identity, deadline: Platform.monotonicSeconds() + capacity.idleTimeout)
                state.withLock { state in
                    state.handshaking -= 1
                    state.refused.completedHandshakes += 1
                }
            } catch {
                state.withLock { state in
                    state.handshaking -= 1
                    state.refused.failedHandshakes += 1
                    if state.refused.handshakes.count < Refusals.keptHandshakeReasons { state.refused.handshakes.append(error.message) }
                }
                plain.close()
                return
            }
        } else {
            socket = plain
        }
        defer { socket.close() }
        var reader = MessageReader(limits: limits)
        while !state.withLock({ $0.isStopped }) {
            let deadline = Platform.monotonicSeconds() + capacity.idleTimeout
            let source: MessageReader.Source = { (buffer: inout [UInt8]) throws(SocketError) -> Int in
                try socket.read(appendingTo: &buffer, maximum: 65_536, waitFirst: false, deadline: deadline)
            }
            let response: HTTPResponse
            var keepAlive = true
            waiting(plain, true)
            do {
                guard let head = try reader.readHead(source) else { return }
                waiting(plain, false)
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
                var answer = (plainText ? plainHandler ?? handler : handler)(request)
                if !keepAlive { answer.headers.append("Connection", "close") }
                response = answer
            } catch let error as SocketError {
                if error.kind == .timedOut { state.withLock { $0.refused.idle += 1 } }
                return
            } catch {
                state.withLock { $0.refused.requests.append("\(error)") }
                let problem = HTTPResponse(status: 400, headers: HTTPHeaders([("Connection", "close")]), body: Array("\(error)\n".utf8))
                try? socket.write(problem.serialized(), deadline: deadline)
                return
            }
            do {
                try socket.write(response.serialized(), deadline: deadline)
            } catch {
                return
            }
            // RFC 9112 §9.6: a server that sends "close" closes the connection after that response.
            let closes = response.headers.values("Connection").contains { value in
                value.split(separator: ",").contains { $0.trimmingSpacesAndTabs().lowercased() == "close" }
            }
            if !keepAlive || closes { return }
        }
    }
}
