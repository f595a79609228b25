import AppFlipSystem
import Foundation

#if canImport(COpenSSL)
    import COpenSSL
#endif

/// A TCP connection spoken over TLS by the system's OpenSSL: the handshake once, then records read and written without
/// blocking, each wait bounded by the caller's deadline (and ended at once by an interrupted run, as the socket's are).
/// What goes in goes out byte for byte: HTTP over it is exactly HTTP over a plain socket. Not shared between threads.
/// Unchecked Sendable: one owner thread at a time, as its socket; OpenSSL's SSL object is used by that thread alone.
package final class TLSStream: ByteStream, @unchecked Sendable {
    let socket: TCPSocket
    /// What the handshake agreed and what the peer presented.
    package private(set) var facts = TLSFacts()
    package private(set) var endedWithoutCloseNotify = false
    /// What the client side verified the peer against (the run's trust; the system's for a server side).
    private let trust: TLSTrust
    #if canImport(COpenSSL)
        private let ssl: OpaquePointer
        private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 1)
    #endif

    #if canImport(COpenSSL)
        private init(socket: TCPSocket, ssl: OpaquePointer, trust: TLSTrust) {
            self.socket = socket
            self.ssl = ssl
            self.trust = trust
        }

        deinit {
            SSL_free(ssl)
            scratch.deallocate()
        }
    #endif

    /// The client side: a handshake with `host` on `socket` before `deadline`, the certificate verified against the
    /// run's `trust` for that name (an IP address against the certificate's addresses), SNI sent for a DNS name.
    package static func connect(_ socket: TCPSocket, host: String, deadline: Double, trust: TLSTrust) throws(SocketError) -> TLSStream {
        #if canImport(COpenSSL)
            return try start(
                socket, context: trust.clientContext(), role: .client(host: host, checksName: true), deadline: deadline, trust: trust)
        #else
            throw SocketError(.tls, "this build does not speak TLS itself")
        #endif
    }

    /// The client side from a context its caller made and configured: what is verified is the context's to say, and
    /// the host name is checked only when `checksHostName` (SNI is sent for a DNS name either way). The suite itself
    /// connects only through `connect(_:host:deadline:)`, whose context always verifies; this is for a deliberately
    /// careless client in the tests (`Tests/BrokenNativeClient`), which builds a context that does not.
    package static func connect(
        _ socket: TCPSocket, context: some TLSContextOwner, host: String, checksHostName: Bool,
        deadline: Double
    ) throws(SocketError) -> TLSStream {
        #if canImport(COpenSSL)
            return try start(
                socket, context: context, role: .client(host: host, checksName: checksHostName), deadline: deadline, trust: .system)
        #else
            throw SocketError(.tls, "this build does not speak TLS itself")
        #endif
    }

    /// The server side: the handshake a client starts on `socket`, with `identity`'s certificate, before `deadline`.
    package static func accept(_ socket: TCPSocket, identity: TLSServerIdentity, deadline: Double) throws(SocketError) -> TLSStream {
        #if canImport(COpenSSL)
            return try start(socket, context: identity, role: .server, deadline: deadline, trust: .system)
        #else
            throw SocketError(.tls, "this build does not speak TLS itself")
        #endif
    }

    #if canImport(COpenSSL)
        /// Which end of the handshake a stream is.
        private enum Role {
            /// The client of `host`, whose name (or address) the certificate must carry when `checksName`.
            case client(host: String, checksName: Bool)
            case server
        }

        /// A stream over `socket` from `context`, its handshake done in `role`. The context is passed as its owner, which
        /// the call keeps alive: a context the trust has just replaced is freed only once `SSL_new` holds a reference of
        /// its own.
        private static func start(
            _ socket: TCPSocket, context: some TLSContextOwner, role: Role, deadline: Double, trust: TLSTrust
        ) throws(SocketError) -> TLSStream {
            let made = withExtendedLifetime(context) { SSL_new(context.context) }
            guard let ssl = made else { throw TLSError.last("starting TLS") }
            let stream = TLSStream(socket: socket, ssl: ssl, trust: trust)
            _ = SSL_set_fd(ssl, socket.fd)
            var host: String?
            if case .client(let name, let checksName) = role {
                host = name
                if TLSFacts.isIPAddress(name) {
                    if checksName { _ = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), name) }
                } else {
                    _ = appflip_SSL_set_tlsext_host_name(ssl, name)
                    if checksName { _ = SSL_set1_host(ssl, name) }
                }
            }
            try stream.handshake(deadline: deadline, connecting: host != nil, host: host)
            stream.facts = TLSFacts(ssl: ssl)
            return stream
        }
    #endif

    #if canImport(COpenSSL)
        private func handshake(deadline: Double, connecting: Bool, host: String?) throws(SocketError) {
            ERR_clear_error()
            while true {
                let result = connecting ? SSL_connect(ssl) : SSL_accept(ssl)
                if result == 1 { return }
                let error = SSL_get_error(ssl, result)
                switch error {
                case SSL_ERROR_WANT_READ: try socket.wait(readable: true, deadline: deadline, what: "in the TLS handshake")
                case SSL_ERROR_WANT_WRITE: try socket.wait(readable: false, deadline: deadline, what: "in the TLS handshake")
                default:
                    let verification = Int32(SSL_get_verify_result(ssl))
                    if connecting, verification != X509_V_OK {
                        ERR_clear_error()
                        let kind: SocketError.Kind = TLSFacts.invalidHere.contains(verification) ? .invalidCertificate : .untrusted
                        throw SocketError(kind, TLSFacts.unverified(host ?? socket.peer, code: verification, ssl: ssl, caFile: trust.caFile))
                    }
                    throw failure(error, what: "the TLS handshake with \(socket.peer) failed")
                }
            }
        }

        /// The error an SSL call ended in, in words.
        private func failure(_ error: Int32, what: String) -> SocketError {
            switch error {
            case SSL_ERROR_ZERO_RETURN:
                return SocketError(.closed, "\(what): the peer closed the TLS connection")
            case SSL_ERROR_SYSCALL:
                let code = ERR_peek_error()
                if code != 0 { return TLSError.last(what) }
                return errno == 0 || errno == EAGAIN
                    ? SocketError(.closed, "\(what): the connection closed") : SocketError(.reset, "\(what): \(String(cString: strerror(errno)))")
            default:
                return TLSError.last(what)
            }
        }
    #endif

    package func write(_ bytes: [UInt8], deadline: Double) throws(SocketError) {
        #if canImport(COpenSSL)
            var offset = 0
            ERR_clear_error()
            while offset < bytes.count {
                guard socket.isOpen else { throw SocketError(.closed, "the connection is closed") }
                var written = 0
                let result = bytes[offset...].withUnsafeBytes { buffer in SSL_write_ex(ssl, buffer.baseAddress, buffer.count, &written) }
                if result == 1 {
                    offset += written
                    continue
                }
                let error = SSL_get_error(ssl, result)
                switch error {
                case SSL_ERROR_WANT_WRITE: try socket.wait(readable: false, deadline: deadline, what: "sending")
                case SSL_ERROR_WANT_READ: try socket.wait(readable: true, deadline: deadline, what: "sending")
                default:
                    let failure = failure(error, what: "sending")
                    throw failure.kind == .closed ? SocketError(.reset, failure.message) : failure
                }
            }
        #endif
    }

    package func read(
        appendingTo buffer: inout [UInt8], maximum: Int = 65_536, waitFirst: Bool = false,
        deadline: Double
    ) throws(SocketError) -> Int {
        #if canImport(COpenSSL)
            // A record may already be decrypted and waiting: only wait on the socket when OpenSSL holds nothing.
            if waitFirst, SSL_pending(ssl) == 0 { try socket.wait(readable: true, deadline: deadline, what: "waiting for data") }
            ERR_clear_error()
            while true {
                guard socket.isOpen else { throw SocketError(.closed, "the connection is closed") }
                var count = 0
                let result = SSL_read_ex(ssl, scratch.baseAddress, min(maximum, scratch.count), &count)
                if result == 1 {
                    buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[..<count]))
                    return count
                }
                let error = SSL_get_error(ssl, result)
                switch error {
                case SSL_ERROR_WANT_READ: try socket.wait(readable: true, deadline: deadline, what: "waiting for data")
                case SSL_ERROR_WANT_WRITE: try socket.wait(readable: false, deadline: deadline, what: "waiting for data")
                case SSL_ERROR_ZERO_RETURN: return 0
                case SSL_ERROR_SSL where appflip_ERR_GET_REASON(ERR_peek_error()) == appflip_SSL_R_UNEXPECTED_EOF_WHILE_READING():
                    // The peer closed without close_notify: the end of the data as far as can be read, which a caller
                    // whose message ends only with the connection must not take for a whole one.
                    ERR_clear_error()
                    endedWithoutCloseNotify = true
                    return 0
                default:
                    let failure = failure(error, what: "receiving")
                    if failure.kind == .closed {
                        endedWithoutCloseNotify = true
                        return 0
                    }
                    throw failure
                }
            }
        #else
            return 0
        #endif
    }

    /// Why the chain the server sent does not lead to a root by itself, or nil when it does: verified again with the
    /// certificates it sent as the only intermediates and only self-signed roots trusted (the system's store, and the
    /// roots of `--ca-file`), so an intermediate that only `--ca-file` supplies shows, as it would to a client that
    /// does not fetch missing intermediates. The name and dates were verified by the handshake.
    package func sentChainProblem() -> String? {
        #if canImport(COpenSSL)
            guard let chain = SSL_get_peer_cert_chain(ssl), appflip_sk_X509_num(chain) > 0, let leaf = appflip_sk_X509_value(chain, 0),
                let store = X509_STORE_new()
            else { return nil }
            defer { X509_STORE_free(store) }
            _ = X509_STORE_set_default_paths(store)
            for anchor in trust.anchors {
                _ = anchor.withX509 { certificate in X509_self_signed(certificate, 0) == 1 ? X509_STORE_add_cert(store, certificate) : 0 }
            }
            ERR_clear_error()
            guard let context = X509_STORE_CTX_new() else { return nil }
            defer { X509_STORE_CTX_free(context) }
            guard X509_STORE_CTX_init(context, store, leaf, chain) == 1 else { return nil }
            if X509_verify_cert(context) == 1 {
                ERR_clear_error()
                return nil
            }
            let code = X509_STORE_CTX_get_error(context)
            ERR_clear_error()
            guard code == X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY || code == X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT else { return nil }
            let sent = (0..<appflip_sk_X509_num(chain)).compactMap { appflip_sk_X509_value(chain, $0) }.compactMap {
                TLSFacts.name(X509_get_subject_name($0))
            }
            let last = appflip_sk_X509_value(chain, appflip_sk_X509_num(chain) - 1)
            let missing = last.flatMap { TLSFacts.name(X509_get_issuer_name($0)) } ?? "its issuer"
            return "the server sends \(sent.count) certificate\(sent.count == 1 ? "" : "s") (" + sent.joined(separator: "; ")
                + ") but not \(missing), which signed the last of them: no root is reached from what it sends, so a client that "
                + "does not fetch missing intermediates cannot connect (the run verified it only with --ca-file's copy)"
        #else
            return nil
        #endif
    }

    /// True when the peer closed or sent application data while the connection sat idle. Records that carry no data
    /// (TLS 1.3 session tickets, which a server sends after the handshake) are read and do not count.
    package var isStale: Bool {
        #if canImport(COpenSSL)
            guard !socket.isStale else {
                guard socket.isOpen else { return true }
                var byte: UInt8 = 0
                var count = 0
                ERR_clear_error()
                let result = SSL_peek_ex(ssl, &byte, 1, &count)
                if result == 1 { return true }
                let error = SSL_get_error(ssl, result)
                ERR_clear_error()
                return error != SSL_ERROR_WANT_READ
            }
            return SSL_pending(ssl) > 0
        #else
            return true
        #endif
    }

    package func close() {
        #if canImport(COpenSSL)
            if socket.isOpen {
                // A close_notify when it can go at once; a peer that reads nothing more is not waited for.
                ERR_clear_error()
                _ = SSL_shutdown(ssl)
                ERR_clear_error()
            }
        #endif
        socket.close()
    }
}
