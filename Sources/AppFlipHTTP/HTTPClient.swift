import AppFlipBase
import AppFlipSystem
import AppFlipTLS

/// An HTTP/1.1 client bound to one origin. Requests go out byte for byte as given; redirects are never followed;
/// every exchange is bounded by a connect timeout, a total timeout and the response limits. One idle connection
/// is kept and reused. Not shared between threads: give each worker its own client.
package final class HTTPClient {
    package struct Timeouts: Sendable, Hashable {
        package var connect: Double
        package var total: Double

        package init(connect: Double = 5, total: Double = 10) {
            self.connect = connect
            self.total = total
        }
    }

    /// Why an exchange produced no response.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package enum Kind: Sendable, Equatable {
            /// The request could not be sent byte for byte (over https), so it was not sent.
            case inexact
            /// The server's certificate could not be verified.
            case untrusted
            /// The server's certificate chains to a trusted root but is expired, not yet valid or for another name.
            case invalidCertificate
            case other
        }

        package var message: String
        package var kind: Kind

        package init(message: String, kind: Kind = .other) {
            self.message = message
            self.kind = kind
        }

        package var description: String { message }
    }

    /// Starts TLS on a connected socket to `host` before a deadline: how an https connection is made.
    package typealias TLSConnector = @Sendable (_ socket: TCPSocket, _ host: String, _ deadline: Double) throws(SocketError) -> TLSStream

    package let origin: HTTPOrigin
    package var limits: HTTPLimits
    package var timeouts: Timeouts
    /// Set only by a client that makes its own TLS connections (a deliberately careless one, in the tests); nil:
    /// `TLSStream.connect`, verified against the network's trust.
    private let connector: TLSConnector?
    /// Where the run's names point and what it trusts.
    package let network: Network
    /// The kept-alive connection with its reader, which may hold bytes the server sent past the last response.
    private var idle: Connection?
    /// For https where this build does not speak TLS itself (`TLSTrust.isAvailable` false): the platform's HTTPS stack.
    private var tls: TLSTransport?
    /// What the last TLS handshake agreed and what the server presented (https over OpenSSL only).
    package private(set) var lastTLS: TLSFacts?
    /// How many connections this client opened, for tests of reuse.
    package private(set) var connectionsOpened = 0

    /// A connection and its reader, kept together while idle. A class, so the reader's buffer is only ever referred
    /// to from here and is read into in place, never copied when an exchange starts.
    private final class Connection {
        let socket: any ByteStream
        var reader: MessageReader

        init(socket: any ByteStream, reader: MessageReader) {
            self.socket = socket
            self.reader = reader
        }
    }

    /// Ends every exchange in flight, over http and https, at once, and fails every later one: for an interrupted
    /// run, which must not wait out its timeouts.
    package static func abortAll() {
        TCPSocket.abortAll()
        TLSTransport.abortAll()
    }

    /// A client of `origin` on the run's `network` (a process that is no run passes `.system`).
    package init(
        origin: HTTPOrigin, network: Network, limits: HTTPLimits = HTTPLimits(), timeouts: Timeouts = Timeouts(),
        tls connector: TLSConnector? = nil
    ) throws(Failure) {
        guard origin.scheme == "http" || origin.scheme == "https" else {
            throw Failure(message: "\(origin.scheme):// targets are not supported; use http:// or https://")
        }
        self.origin = origin
        self.limits = limits
        self.timeouts = timeouts
        self.connector = connector
        self.network = network
        if origin.scheme == "https", !TLSTrust.isAvailable { tls = TLSTransport(limits: limits, timeouts: timeouts) }
    }

    deinit {
        idle?.socket.close()
        tls?.close()
    }

    package func close() {
        idle?.socket.close()
        idle = nil
        tls?.close()
        tls = nil
    }

    /// Sends one request and reads the response.
    package func send(_ request: HTTPRequest) throws(Failure) -> HTTPResponse {
        // Nothing is written that would not be read back as this one request.
        if let problem = request.injectionProblem { throw Failure(message: "not sent: " + problem) }
        if origin.scheme == "https", !TLSTrust.isAvailable {
            if tls == nil { tls = TLSTransport(limits: limits, timeouts: timeouts) }
            guard let tls else { throw Failure(message: "no TLS transport") }
            return try tls.send(request, origin: origin, total: timeouts.total)
        }
        let started = Platform.monotonicSeconds()
        let deadline = started + timeouts.total
        if let reused = idle, !reused.socket.isStale {
            idle = nil
            do {
                return try exchange(request, on: reused, deadline: deadline, reused: true)
            } catch let failure as RetryableFailure {
                // The server closed the kept-alive connection before answering: try once more on a fresh one,
                // within what is left of the same total time.
                if Platform.monotonicSeconds() >= deadline {
                    throw Failure(
                        message: "no complete response within \(format(timeouts.total)) s: the server closed the kept-alive "
                            + "connection after \(format(failure.waited)) s without answering")
                }
            } catch {
                throw Failure(message: "\(error)")
            }
        } else {
            idle?.socket.close()
            idle = nil
        }
        let socket = try open(deadline: deadline)
        do {
            return try exchange(request, on: Connection(socket: socket, reader: MessageReader(limits: limits)), deadline: deadline, reused: false)
        } catch {
            throw Failure(message: "\(error)")
        }
    }

    /// A new connection to the origin (over TLS for https, the handshake within the connect timeout), to the address
    /// the run's `HostMapping` names for it, if any.
    private func open(deadline: Double) throws(Failure) -> any ByteStream {
        let now = Platform.monotonicSeconds()
        let limitedByTotal = deadline <= now + timeouts.connect
        let connectDeadline = min(deadline, now + timeouts.connect)
        let socket: TCPSocket
        do {
            socket = try TCPSocket.connect(host: origin.host, port: origin.port, deadline: connectDeadline, mapping: network.hosts)
        } catch {
            guard error.kind == .timedOut else { throw Failure(message: error.message) }
            if limitedByTotal {
                throw Failure(message: "no complete response within \(format(timeouts.total)) s: the time ran out while connecting to \(origin)")
            }
            throw Failure(message: "connecting to \(origin) timed out after \(format(timeouts.connect)) s")
        }
        connectionsOpened += 1
        guard origin.scheme == "https" else { return socket }
        do {
            let stream: TLSStream
            if let connector {
                stream = try connector(socket, origin.host, connectDeadline)
            } else {
                stream = try TLSStream.connect(socket, host: origin.host, deadline: connectDeadline, trust: network.trust)
            }
            lastTLS = stream.facts
            network.observations.record(stream.facts, for: origin)
            return stream
        } catch {
            socket.close()
            guard error.kind == .timedOut else {
                throw Failure(
                    message: error.message,
                    kind: error.kind == .untrusted ? .untrusted : error.kind == .invalidCertificate ? .invalidCertificate : .other)
            }
            throw Failure(message: "the TLS handshake with \(origin) did not finish within \(format(min(timeouts.connect, deadline - now))) s")
        }
    }

    /// Connects to `origin` and, for https, completes the handshake (the certificate verified), then closes: the
    /// preflight's look at an origin. Returns what the handshake agreed, nil for http.
    package static func handshake(_ origin: HTTPOrigin, network: Network, timeout: Double) throws(Failure) -> TLSFacts? {
        let client = try HTTPClient(origin: origin, network: network, timeouts: Timeouts(connect: timeout, total: timeout))
        if origin.scheme == "https", !TLSTrust.isAvailable {
            // The platform's stack cannot be asked for a handshake alone: a TCP connection is what can be checked.
            do {
                try TCPSocket.connect(
                    host: origin.host, port: origin.port, deadline: Platform.monotonicSeconds() + timeout, mapping: network.hosts
                ).close()
            } catch {
                throw Failure(message: error.message)
            }
            return nil
        }
        let stream = try client.open(deadline: Platform.monotonicSeconds() + timeout)
        stream.close()
        return client.lastTLS
    }

    /// A whole handshake with `origin` (https), the certificate verified as every request's is, then what the server
    /// sent checked apart (`TLSStream.sentChainProblem`): what a `tls: certificate` probe judges. Throws as
    /// `handshake` does, `.invalidCertificate` for a certificate not valid here.
    package static func inspectTLS(
        _ origin: HTTPOrigin, network: Network, timeout: Double
    ) throws(Failure) -> (facts: TLSFacts, chainProblem: String?) {
        let client = try HTTPClient(origin: origin, network: network, timeouts: Timeouts(connect: timeout, total: timeout))
        let stream = try client.open(deadline: Platform.monotonicSeconds() + timeout)
        defer { stream.close() }
        let chainProblem = (stream as? TLSStream)?.sentChainProblem()
        return (client.lastTLS ?? TLSFacts(), chainProblem)
    }

    private struct RetryableFailure: Error {
        var waited: Double
    }

    /// Where an exchange was when it stopped, so a timeout says which phase ran out.
    private enum Phase {
        case sending
        case awaitingResponse
        case readingHead
        case readingBody(statusLine: String)

        /// True before any part of a response was recognised.
        var receivedNothing: Bool {
            switch self {
            case .sending, .awaitingResponse: true
            case .readingHead, .readingBody: false
            }
        }

        func describe(bufferedBytes: Int, reused: Bool) -> String {
            let connection = reused ? "a reused kept-alive connection" : "a new connection"
            switch self {
            case .sending: return "the time ran out sending the request on \(connection) (the server stopped reading)"
            case .awaitingResponse: return "the time ran out waiting for the response: the request was sent on \(connection) and no byte came back"
            case .readingHead: return "the time ran out reading the response head: \(bufferedBytes) bytes arrived and the header section never ended"
            case .readingBody(let statusLine):
                return "the time ran out reading the response body after \(MessageReader.show(Substring(statusLine)))"
            }
        }
    }

    /// Sends a request the server may leave partly unread (`HTTPRequest.mayDesync`: a body on a method that gives
    /// it no meaning, framing set by hand) on a connection of its own that nothing else uses and that is closed
    /// after. With `followUp`, when the server kept that connection open after answering, the follow-up is sent on
    /// it: a server that did not read the whole request reads what it left as the start of the follow-up, so its
    /// answer shows a desync (`followUp` is nil when the connection closed, or `followUp` was not given).
    package func sendAlone(_ request: HTTPRequest, followUp: HTTPRequest? = nil) throws(Failure)
        -> (response: HTTPResponse, followUp: Result<HTTPResponse, Failure>?)
    {
        if origin.scheme == "https", !TLSTrust.isAvailable {
            // The platform's HTTPS stack keeps its own connections; it refuses such requests anyway (not byte for byte).
            return (try send(request), nil)
        }
        for sent in [request, followUp].compactMap({ $0 }) {
            if let problem = sent.injectionProblem { throw Failure(message: "not sent: " + problem) }
        }
        let deadline = Platform.monotonicSeconds() + timeouts.total
        let socket = try open(deadline: deadline)
        let connection = Connection(socket: socket, reader: MessageReader(limits: limits))
        defer { socket.close() }
        let response: HTTPResponse
        var keptOpen = false
        do {
            response = try exchange(request, on: connection, deadline: deadline, reused: false, keptOpen: &keptOpen)
        } catch {
            throw Failure(message: "\(error)")
        }
        guard let followUp, keptOpen else { return (response, nil) }
        do {
            var again = false
            return (
                response,
                .success(
                    try exchange(
                        followUp, on: connection, deadline: Platform.monotonicSeconds() + min(timeouts.total, 5),
                        reused: true, keptOpen: &again))
            )
        } catch is RetryableFailure {
            return (response, nil)  // closed before answering the follow-up: nothing was left unread in it
        } catch {
            return (response, .failure(Failure(message: "\(error)")))
        }
    }

    private func exchange(_ request: HTTPRequest, on connection: Connection, deadline: Double, reused: Bool) throws -> HTTPResponse {
        var keptOpen = false
        let response = try exchange(request, on: connection, deadline: deadline, reused: reused, keptOpen: &keptOpen)
        if keptOpen { idle = connection }
        return response
    }

    /// One request and its response on `connection`; `keptOpen` says whether the connection can carry another.
    private func exchange(
        _ request: HTTPRequest, on connection: Connection, deadline: Double, reused: Bool,
        keptOpen: inout Bool
    ) throws -> HTTPResponse {
        let socket = connection.socket
        let started = Platform.monotonicSeconds()
        var phase = Phase.sending
        // The first read after the request waits before it asks: the answer cannot be there yet.
        var firstRead = true
        let source: MessageReader.Source = { (buffer: inout [UInt8]) throws(SocketError) -> Int in
            defer { firstRead = false }
            return try socket.read(appendingTo: &buffer, maximum: 65_536, waitFirst: firstRead, deadline: deadline)
        }
        do {
            try socket.write(request.serialized(host: origin.hostHeader), deadline: deadline)
            phase = .awaitingResponse
            while true {
                guard let head = try connection.reader.readHead(source) else {
                    socket.close()
                    if reused { throw RetryableFailure(waited: Platform.monotonicSeconds() - started) }
                    throw HTTPError("the server closed the connection without a response")
                }
                let statusLine = try HTTPStatusLine(parsing: head.startLine)
                let (status, reason, isHTTP11) = (statusLine.status, statusLine.reason, statusLine.isHTTP11)
                if (100...199).contains(status), status != 101 {
                    phase = .readingHead
                    continue
                }
                phase = .readingBody(statusLine: head.startLine)
                let framing: MessageReader.Framing =
                    request.method == "HEAD" || status == 204 || status == 304 || (100...199).contains(status)
                    ? .none : try MessageReader.framing(head.headers, isResponse: true)
                let body = try connection.reader.readBody(framing, source)
                // Connection is a list of options (RFC 9110 §7.6.1): "close" among them ends the connection.
                let closes =
                    head.headers.values("Connection").contains { value in
                        value.split(separator: ",").contains { $0.trimmingSpacesAndTabs().lowercased() == "close" }
                    } || !isHTTP11
                if case .untilClose = framing {
                    if socket.endedWithoutCloseNotify {
                        // RFC 9112 §9.8: a close-delimited body whose TLS connection ended without close_notify may be cut.
                        socket.close()
                        throw HTTPError(
                            "the body ends where the connection closed without a TLS close_notify (after \(body.count) bytes): "
                                + "a body delimited by the close may be cut there (RFC 9112 §9.8), so it is not taken as whole")
                    }
                    socket.close()
                } else if !closes, !connection.reader.sawEnd, connection.reader.bufferedByteCount == 0 {
                    // Kept alive with its reader; bytes beyond the response would be unsolicited, so such a
                    // connection is not reused.
                    keptOpen = true
                } else {
                    socket.close()
                }
                return HTTPResponse(status: status, reason: reason, headers: head.headers, body: body)
            }
        } catch let error as SocketError {
            socket.close()
            if case .awaitingResponse = phase, connection.reader.bufferedByteCount > 0 { phase = .readingHead }
            if reused, error.kind == .reset || error.kind == .closed, phase.receivedNothing, connection.reader.bufferedByteCount == 0 {
                throw RetryableFailure(waited: Platform.monotonicSeconds() - started)
            }
            switch error.kind {
            case .timedOut:
                throw HTTPError(
                    "no complete response within \(format(timeouts.total)) s: "
                        + phase.describe(bufferedBytes: connection.reader.bufferedByteCount, reused: reused))
            case .reset: throw HTTPError("the connection was reset: \(error.message)")
            default: throw HTTPError(error.message)
            }
        } catch let failure as RetryableFailure {
            throw failure
        } catch {
            socket.close()
            throw error
        }
    }

    private func format(_ seconds: Double) -> String {
        let rounded = (seconds * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
