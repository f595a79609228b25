import AppFlipSystem

/// An HTTP/1.1 client bound to one origin. Requests go out byte for byte as given; redirects are never followed;
/// every exchange is bounded by a connect timeout, a total timeout and the response limits. One idle connection
/// is kept and reused. Not shared between threads: give each worker its own client.
public final class HTTPClient {
    public struct Timeouts: Sendable, Hashable {
        public var connect: Double
        public var total: Double

        public init(connect: Double = 5, total: Double = 10) {
            self.connect = connect
            self.total = total
        }
    }

    /// Why an exchange produced no response.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public enum Kind: Sendable, Equatable {
            /// The request could not be sent byte for byte (over https), so it was not sent.
            case inexact
            case other
        }

        public var message: String
        public var kind: Kind

        public init(message: String, kind: Kind = .other) {
            self.message = message
            self.kind = kind
        }

        public var description: String { message }
    }

    public let origin: HTTPOrigin
    public var limits: HTTPLimits
    public var timeouts: Timeouts
    private var idle: TCPSocket?
    /// For https: the platform's HTTPS stack.
    private var tls: TLSTransport?
    /// How many connections this client opened, for tests of reuse.
    public private(set) var connectionsOpened = 0

    public init(origin: HTTPOrigin, limits: HTTPLimits = HTTPLimits(), timeouts: Timeouts = Timeouts()) throws(Failure) {
        guard origin.scheme == "http" || origin.scheme == "https" else {
            throw Failure(message: "\(origin.scheme):// targets are not supported; use http:// or https://")
        }
        self.origin = origin
        self.limits = limits
        self.timeouts = timeouts
        if origin.scheme == "https" { tls = TLSTransport(limits: limits, timeouts: timeouts) }
    }

    deinit {
        idle?.close()
        tls?.close()
    }

    public func close() {
        idle?.close()
        idle = nil
        tls?.close()
        tls = nil
    }

    /// Sends one request and reads the response.
    public func send(_ request: HTTPRequest) throws(Failure) -> HTTPResponse {
        if origin.scheme == "https" {
            if tls == nil { tls = TLSTransport(limits: limits, timeouts: timeouts) }
            guard let tls else { throw Failure(message: "no TLS transport") }
            return try tls.send(request, origin: origin, total: timeouts.total)
        }
        let deadline = Platform.monotonicSeconds() + timeouts.total
        if let reused = idle, !reused.isStale {
            idle = nil
            do {
                return try exchange(request, on: reused, deadline: deadline, reused: true)
            } catch let failure as RetryableFailure {
                _ = failure  // the server closed an idle connection; try once on a fresh one
            } catch {
                throw Failure(message: "\(error)")
            }
        } else {
            idle?.close()
            idle = nil
        }
        let socket: TCPSocket
        do {
            socket = try TCPSocket.connect(host: origin.host, port: origin.port,
                                           deadline: min(deadline, Platform.monotonicSeconds() + timeouts.connect))
            connectionsOpened += 1
        } catch {
            throw Failure(message: error.kind == .timedOut ? "connecting to \(origin) timed out after \(timeouts.connect) s" : error.message)
        }
        do {
            return try exchange(request, on: socket, deadline: deadline, reused: false)
        } catch {
            throw Failure(message: "\(error)")
        }
    }

    private struct RetryableFailure: Error {}

    private func exchange(_ request: HTTPRequest, on socket: TCPSocket, deadline: Double, reused: Bool) throws -> HTTPResponse {
        var reader = MessageReader(limits: limits)
        let source: MessageReader.Source = { () throws(SocketError) -> [UInt8] in try socket.read(deadline: deadline) }
        do {
            try socket.write(request.serialized(host: origin.hostHeader), deadline: deadline)
            while true {
                guard let head = try reader.readHead(source) else {
                    if reused { throw RetryableFailure() }
                    throw HTTPError("the server closed the connection without a response")
                }
                let (status, reason, isHTTP11) = try parseStatusLine(head.startLine)
                if (100...199).contains(status), status != 101 { continue }
                let framing: MessageReader.Framing = request.method == "HEAD" || status == 204 || status == 304 || (100...199).contains(status)
                    ? .none : try MessageReader.framing(head.headers, isResponse: true)
                let body = try reader.readBody(framing, source)
                let closes = head.headers["Connection"]?.lowercased().contains("close") == true || !isHTTP11
                if case .untilClose = framing {} else if !closes, !reader.sawEnd { idle = socket } else { socket.close() }
                return HTTPResponse(status: status, reason: reason, headers: head.headers, body: body)
            }
        } catch let error as SocketError {
            socket.close()
            if reused, error.kind == .reset || error.kind == .closed { throw RetryableFailure() }
            switch error.kind {
            case .timedOut: throw HTTPError("no complete response within \(timeouts.total) s")
            case .reset: throw HTTPError("the connection was reset: \(error.message)")
            default: throw HTTPError(error.message)
            }
        } catch {
            socket.close()
            throw error
        }
    }

    private func parseStatusLine(_ line: String) throws -> (Int, String, Bool) {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let status = Int(parts[1]), (100...999).contains(status) else {
            throw HTTPError("invalid status line: \(MessageReader.show(Substring(line)))")
        }
        return (status, parts.count > 2 ? String(parts[2]) : "", parts[0] == "HTTP/1.1")
    }
}
