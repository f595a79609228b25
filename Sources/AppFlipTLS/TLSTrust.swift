import AppFlipBase
import AppFlipSystem
import Foundation

#if canImport(COpenSSL)
    import COpenSSL
#endif

/// What the suite trusts when it verifies a server's certificate: the system's store (as OpenSSL finds it, honouring
/// `SSL_CERT_FILE` and `SSL_CERT_DIR`), a staging CA given with `--ca-file` or `ca_file:`, and CAs made in memory for
/// one run (the reference's). For the whole process, which is one run of the command line. Verification is always
/// on: the chain, the host name (an IP address against the certificate's IP addresses) and the validity dates.
package enum TLSTrust {
    /// Whether this build speaks TLS itself (through the system's OpenSSL): on Linux. Elsewhere https goes through the
    /// platform's HTTPS stack, and what it cannot send as written is skipped (Documentation/Configuration.md, "HTTPS").
    #if canImport(COpenSSL)
        package static let isAvailable = true
    #else
        package static let isAvailable = false
    #endif

    /// A CA file that cannot be used: why, in a sentence.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }

    /// Trusts the CA certificates in `pem`, the contents of the CA file `path` (read by the caller, within its
    /// bound), besides the system's store, from now on. Checked at once: a file that holds no certificate is an error.
    package static func trust(caFile path: String, pem: [UInt8]) throws(Failure) {
        #if canImport(COpenSSL)
            let certificates = PEMCertificates.read(pem)
            guard !certificates.isEmpty else { throw Failure(message: "\(path) holds no PEM certificate (-----BEGIN CERTIFICATE-----)") }
            state.withLock {
                $0.caFile = path
                $0.add(certificates)
            }
        #else
            throw Failure(message: "--ca-file needs this build to speak TLS itself (Linux); on this platform trust the CA in the system's store")
        #endif
    }

    /// Trusts `pem` (certificates made in memory for this run, such as the reference's CA) from now on.
    package static func trust(pem: String) {
        #if canImport(COpenSSL)
            let certificates = PEMCertificates.read(Array(pem.utf8))
            state.withLock { $0.add(certificates) }
        #endif
    }

    /// The CA file given, if any (for the report and for messages that say how to trust a CA).
    package static var caFile: String? { state.withLock { $0.caFile } }

    #if canImport(COpenSSL)
        package struct State {
            package private(set) var anchors: [PEMCertificates.Certificate] = []
            var caFile: String?
            /// The context for the anchors as they stand, once made, with how many anchors it was made from.
            package private(set) var clientContext: (context: ClientContext, anchors: Int)?

            package init() {}

            /// Trusts `certificates` besides the anchors; the client context is made again only when one is new (a
            /// native client given the same CA at every sign-in keeps its context).
            package mutating func add(_ certificates: [PEMCertificates.Certificate]) {
                let new = certificates.filter { !anchors.contains($0) }
                guard !new.isEmpty else { return }
                anchors += new
                clientContext = nil
            }

            /// Keeps `made`, a context built from the first `count` anchors, unless anchors were added meanwhile (another
            /// run's CA, in a process running several): kept, it would serve every later connection without them.
            package mutating func keep(_ made: ClientContext, madeFrom count: Int) {
                guard clientContext == nil, count == anchors.count else { return }
                clientContext = (made, count)
            }
        }

        static let state = Locked(State())

        /// The context every client connection is made from, built once for the trust as it stands: every anchor added
        /// before the call is in it.
        static func clientContext() throws(SocketError) -> ClientContext {
            if let known = state.withLock({ $0.clientContext?.context }) { return known }
            let anchors = state.withLock { $0.anchors }
            let made = try ClientContext(anchors: anchors)
            state.withLock { $0.keep(made, madeFrom: anchors.count) }
            return made
        }

        /// An SSL_CTX for clients: TLS 1.2 and up, the peer verified against the system's store and the anchors.
        /// Unchecked Sendable: the SSL_CTX is only read once configured, which OpenSSL lets threads share.
        package final class ClientContext: TLSContextOwner, @unchecked Sendable {
            package let context: OpaquePointer

            package init(anchors: [PEMCertificates.Certificate]) throws(SocketError) {
                guard let context = SSL_CTX_new(TLS_client_method()) else { throw TLSError.last("creating a TLS context") }
                self.context = context
                _ = appflip_SSL_CTX_set_min_proto_version(context, appflip_TLS1_2_VERSION())
                _ = appflip_SSL_CTX_set_partial_write_modes(context)
                // A close without close_notify is read as such (`TLSStream.endedWithoutCloseNotify`), not as an orderly end:
                // a body that ends with the connection would be cut without a sign (RFC 9112 §9.8).
                _ = SSL_CTX_set_options(context, UInt64(appflip_SSL_OP_NO_RENEGOTIATION()))
                // The system's store, where OpenSSL looks for it (SSL_CERT_FILE and SSL_CERT_DIR honoured).
                _ = SSL_CTX_set_default_verify_paths(context)
                let store = SSL_CTX_get_cert_store(context)
                for anchor in anchors { _ = anchor.withX509 { X509_STORE_add_cert(store, $0) } }
                ERR_clear_error()  // a certificate already in the store is an error on the queue, and no reason to stop
                SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
                let alpn: [UInt8] = [8] + Array("http/1.1".utf8)
                _ = alpn.withUnsafeBufferPointer { SSL_CTX_set_alpn_protos(context, $0.baseAddress, UInt32($0.count)) }
            }

            deinit { SSL_CTX_free(context) }
        }
    #endif
}
