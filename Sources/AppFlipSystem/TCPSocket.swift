// Foundation re-exports the C library on both platforms; spellings that differ are in Platform.swift.
import AppFlipBase
import Foundation

/// Why a socket operation failed, in words a report can show.
package struct SocketError: Error, Sendable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        case resolve
        case refused
        case timedOut
        case reset
        case closed
        /// The TLS handshake or a TLS record failed (a certificate that cannot be verified among the reasons).
        case tls
        /// The peer's certificate could not be verified (a kind of `tls` failure the run says how to mend).
        case untrusted
        /// The peer's certificate chains to a trusted root but is not valid here: expired, not yet valid, or for
        /// another name. The server's fault, not the run's setup: a finding of the endpoint's HTTPS requirement.
        case invalidCertificate
        case other
    }

    package var kind: Kind
    package var message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }

    static func fromErrno(_ what: String, _ code: Int32 = errno) -> SocketError {
        let text = "\(what): \(String(cString: strerror(code)))"
        switch code {
        case ECONNREFUSED: return SocketError(.refused, text)
        case ECONNRESET, EPIPE: return SocketError(.reset, text)
        case ETIMEDOUT: return SocketError(.timedOut, text)
        default: return SocketError(.other, text)
        }
    }
}

/// A connected TCP stream with deadline-bounded, non-blocking reads and writes. Not shared between threads.
/// Unchecked Sendable: one owner thread at a time, handed over whole; calls on the descriptor are the OS's to order.
package final class TCPSocket: @unchecked Sendable {
    package private(set) var fd: Int32
    /// `host:port` of the peer as given when connecting (or the client's address when accepted).
    package let peer: String
    /// Where reads land before they are copied out: allocated once per connection, not once per read.
    private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 1)

    init(fd: Int32, peer: String) {
        self.fd = fd
        self.peer = peer
        Platform.suppressSIGPIPE(on: fd)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        Self.registry.withLock { $0.open[ObjectIdentifier(self)] = fd }
    }

    /// Every open connection's descriptor, and whether the run was interrupted; a descriptor is closed under it too.
    private static let registry = Locked((open: [ObjectIdentifier: Int32](), aborted: false))

    /// Ends every exchange in flight at once (an interrupted run does not wait out its timeouts): each open
    /// connection is shut down, and every wait from now on fails.
    package static func abortAll() {
        registry.withLock { registry in
            registry.aborted = true
            for fd in registry.open.values { _ = shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    /// Ends this connection's exchange from another thread: a read or a wait on it returns at once (the end of
    /// the stream), and its owner closes it as usual. Nothing once it is closed.
    package func shutDown() {
        Self.registry.withLock { _ in
            if fd >= 0 { _ = shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    deinit {
        close()
        scratch.deallocate()
    }

    package var isOpen: Bool { fd >= 0 }

    /// Connects to `host:port` (or where the run's `mapping` points it), trying each resolved address in turn, giving
    /// up at `deadline` (monotonic seconds).
    package static func connect(host name: String, port named: Int, deadline: Double, mapping: HostMapping) throws(SocketError) -> TCPSocket {
        let (host, port) = mapping.destination(of: name, port: named)
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Platform.streamSocketType
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw SocketError(.resolve, "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = SocketError(.other, "no address for \(host)")
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            cursor = entry.pointee.ai_next
            let fd = socket(entry.pointee.ai_family, Platform.streamSocketType, 0)
            guard fd >= 0 else {
                lastError = .fromErrno("socket")
                continue
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            let result = Foundation.connect(fd, entry.pointee.ai_addr, entry.pointee.ai_addrlen)
            if result == 0 || errno == EINPROGRESS {
                if result != 0 {
                    var pollEntry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    let remaining = deadline - Platform.monotonicSeconds()
                    let ready = remaining > 0 ? poll(&pollEntry, 1, Int32(max(1, min(remaining * 1000, 600_000)))) : 0
                    if ready <= 0 {
                        Foundation.close(fd)
                        throw SocketError(.timedOut, "connecting to \(host):\(port) timed out")
                    }
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                    if error != 0 {
                        lastError = .fromErrno("connecting to \(host):\(port)", error)
                        Foundation.close(fd)
                        continue
                    }
                }
                return TCPSocket(fd: fd, peer: "\(name):\(named)")
            }
            lastError = .fromErrno("connecting to \(host):\(port)")
            Foundation.close(fd)
        }
        throw lastError
    }

    /// Writes every byte before `deadline`.
    package func write(_ bytes: [UInt8], deadline: Double) throws(SocketError) {
        var offset = 0
        while offset < bytes.count {
            guard fd >= 0 else { throw SocketError(.closed, "the connection is closed") }
            let sent = bytes[offset...].withUnsafeBytes { buffer in
                send(fd, buffer.baseAddress, buffer.count, Platform.sendFlags)
            }
            if sent > 0 {
                offset += sent
                continue
            }
            if sent < 0, errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR { throw .fromErrno("sending") }
            try wait(for: Int16(POLLOUT), deadline: deadline, what: "sending")
        }
    }

    /// Reads up to `maximum` bytes; an empty result means the peer closed its end.
    package func read(maximum: Int = 65_536, deadline: Double) throws(SocketError) -> [UInt8] {
        var bytes: [UInt8] = []
        _ = try read(appendingTo: &bytes, maximum: maximum, deadline: deadline)
        return bytes
    }

    /// Appends up to `maximum` bytes to `buffer` (one copy, no array per read) and returns how many; 0 means the
    /// peer closed its end. With `waitFirst`, waits for data before the first attempt: right after a request is
    /// sent the answer is not there yet, and asking would cost a system call that finds nothing.
    package func read(
        appendingTo buffer: inout [UInt8], maximum: Int = 65_536, waitFirst: Bool = false,
        deadline: Double
    ) throws(SocketError) -> Int {
        if waitFirst { try wait(for: Int16(POLLIN), deadline: deadline, what: "waiting for data") }
        while true {
            guard fd >= 0 else { throw SocketError(.closed, "the connection is closed") }
            let count = recv(fd, scratch.baseAddress, min(maximum, scratch.count), 0)
            if count >= 0 {
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[..<count]))
                return count
            }
            if errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR { throw .fromErrno("receiving") }
            try wait(for: Int16(POLLIN), deadline: deadline, what: "waiting for data")
        }
    }

    /// The first byte the peer sent, left unread (nil when it closed or sent nothing before `deadline`): how a server
    /// tells a TLS ClientHello (0x16) from a plain-text request on one port.
    package func peekFirstByte(deadline: Double) -> UInt8? {
        guard (try? wait(for: Int16(POLLIN), deadline: deadline, what: "waiting for the first byte")) != nil else { return nil }
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Platform.peekFlag)
        return count == 1 ? byte : nil
    }

    /// True when the peer has closed or sent something unexpected while the connection sat idle.
    package var isStale: Bool {
        guard fd >= 0 else { return true }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) != 0
    }

    package func close() {
        // Under the registry's lock, so an abort never shuts down a descriptor number already reused.
        Self.registry.withLock { registry in
            if fd >= 0 {
                Foundation.close(fd)
                fd = -1
            }
            registry.open[ObjectIdentifier(self)] = nil
        }
    }

    /// Waits until the descriptor is readable (or, with `writable`, writable), the run is interrupted, or `deadline`
    /// passes: what a stream layered on this socket (TLS) waits for between its non-blocking attempts.
    package func wait(readable: Bool, deadline: Double, what: String) throws(SocketError) {
        try wait(for: Int16(readable ? POLLIN : POLLOUT), deadline: deadline, what: what)
    }

    private func wait(for events: Int16, deadline: Double, what: String) throws(SocketError) {
        if Self.registry.withLock({ $0.aborted }) { throw SocketError(.closed, "the run was interrupted") }
        let remaining = deadline - Platform.monotonicSeconds()
        guard remaining > 0 else { throw SocketError(.timedOut, "timed out \(what)") }
        var entry = pollfd(fd: fd, events: events, revents: 0)
        let ready = poll(&entry, 1, Int32(max(1, min(remaining * 1000, 600_000))))
        if ready == 0, Platform.monotonicSeconds() >= deadline { throw SocketError(.timedOut, "timed out \(what)") }
        if ready < 0, errno != EINTR { throw .fromErrno(what) }
    }
}

/// A listening TCP socket on a local address.
package final class TCPListener: Sendable {
    package let port: Int
    package let host: String
    /// The listening descriptor; closed by whichever of `close()` and a running `accept()` finishes last, so its
    /// number is never given back while an accept could still use it (it would then take another listener's
    /// connections).
    private let state: Locked<(descriptor: Int32, closed: Bool, accepting: Int)>

    /// The listening descriptor, or -1 once closed.
    package var fd: Int32 { state.withLock { $0.descriptor } }

    /// Listens on `host` (an IP literal such as 127.0.0.1) and `port` (0 picks a free one).
    package init(host: String = "127.0.0.1", port: Int = 0) throws(SocketError) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Platform.streamSocketType
        hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let entry = list else {
            throw SocketError(.resolve, "cannot listen on \(host): not an IP address")
        }
        defer { freeaddrinfo(list) }
        let fd = socket(entry.pointee.ai_family, Platform.streamSocketType, 0)
        guard fd >= 0 else { throw .fromErrno("socket") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, entry.pointee.ai_addr, entry.pointee.ai_addrlen) == 0, listen(fd, 128) == 0 else {
            let error = SocketError.fromErrno("listening on \(host):\(port)")
            Foundation.close(fd)
            throw error
        }
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let boundPort =
            withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            } == 0 ? TCPListener.port(of: address) : port
        self.state = Locked((descriptor: fd, closed: false, accepting: 0))
        self.port = boundPort
        self.host = host
    }

    deinit { close() }

    /// Waits for the next connection; nil once the listener is closed or the wait times out.
    package func accept(timeout: Double? = nil) -> TCPSocket? {
        let listening: Int32? = state.withLock { state in
            guard !state.closed, state.descriptor >= 0 else { return nil }
            state.accepting += 1
            return state.descriptor
        }
        guard let listening else { return nil }
        defer {
            state.withLock { state in
                state.accepting -= 1
                if state.closed, state.accepting == 0, state.descriptor >= 0 {
                    Foundation.close(state.descriptor)
                    state.descriptor = -1
                }
            }
        }
        while !state.withLock({ $0.closed }) {
            var entry = pollfd(fd: listening, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, timeout.map { Int32(max(0, $0 * 1000)) } ?? 200)
            if ready == 0 {
                if timeout != nil { return nil }
                continue
            }
            if ready < 0 { if errno == EINTR { continue } else { return nil } }
            if state.withLock({ $0.closed }) { return nil }
            let client = Foundation.accept(listening, nil, nil)
            if client >= 0 {
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                return TCPSocket(fd: client, peer: "client")
            }
        }
        return nil
    }

    /// Stops listening at once: the shutdown wakes an `accept` waiting in poll (which would otherwise hold the
    /// socket, still listening, until its poll timed out). The descriptor is closed here, or by that accept as it
    /// returns.
    package func close() {
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            guard state.descriptor >= 0 else { return }
            _ = shutdown(state.descriptor, Int32(SHUT_RDWR))
            if state.accepting == 0 {
                Foundation.close(state.descriptor)
                state.descriptor = -1
            }
        }
    }

    private static func port(of address: sockaddr_storage) -> Int {
        var copy = address
        return withUnsafePointer(to: &copy) { pointer in
            if Int32(address.ss_family) == AF_INET {
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
        }
    }
}
