import AppFlipBase
import AppFlipSystem
import Foundation

#if canImport(COpenSSL)
    import COpenSSL
#endif

/// What a run trusts when it verifies a server's certificate: the system's store (as OpenSSL finds it, honouring
/// `SSL_CERT_FILE` and `SSL_CERT_DIR`), a staging CA given with `--ca-file` or `ca_file:`, and CAs made in memory for
/// the run (the reference's). A value of one run, fixed once made (`adding` makes another): two suites run in one
/// process (the library product) never trust each other's CAs. Verification is always on: the chain, the host name
/// (an IP address against the certificate's IP addresses) and the validity dates.
package final class TLSTrust: Sendable {
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

    /// The CA file given, if any (for the report and for messages that say how to trust a CA).
    package let caFile: String?

    /// The system's store alone.
    package static let system = TLSTrust()

    #if canImport(COpenSSL)
        /// The certificates trusted besides the system's store.
        package let anchors: [PEMCertificates.Certificate]
        /// The context every client connection is made from, once made.
        private let context = Locked<ClientContext?>(nil)

        private init(anchors: [PEMCertificates.Certificate] = [], caFile: String? = nil) {
            self.anchors = anchors
            self.caFile = caFile
        }
    #else
        private init(caFile: String? = nil) {
            self.caFile = caFile
        }
    #endif

    /// Trusts the CA certificates in `pem`, the contents of the CA file `path` (read by the caller, within its
    /// bound), besides the system's store. Checked at once: a file that holds no certificate is an error.
    package convenience init(caFile path: String, pem: [UInt8]) throws(Failure) {
        #if canImport(COpenSSL)
            let certificates = PEMCertificates.read(pem)
            guard !certificates.isEmpty else { throw Failure(message: "\(path) holds no PEM certificate (-----BEGIN CERTIFICATE-----)") }
            self.init(anchors: certificates, caFile: path)
        #else
            throw Failure(message: "--ca-file needs this build to speak TLS itself (Linux); on this platform trust the CA in the system's store")
        #endif
    }

    /// This trust and `pem` besides (certificates made in memory, such as the reference's CA).
    package func adding(pem: String) -> TLSTrust {
        #if canImport(COpenSSL)
            let new = PEMCertificates.read(Array(pem.utf8)).filter { !anchors.contains($0) }
            return new.isEmpty ? self : TLSTrust(anchors: anchors + new, caFile: caFile)
        #else
            return self
        #endif
    }

    #if canImport(COpenSSL)
        /// The context every client connection is made from, built once: the system's store and the anchors.
        func clientContext() throws(SocketError) -> ClientContext {
            if let known = context.withLock({ $0 }) { return known }
            let made = try ClientContext(anchors: anchors)
            return context.withLock { kept in
                if let kept { return kept }
                kept = made
                return made
            }
        }

        /// An SSL_CTX for clients: TLS 1.2 and up, the peer verified against the system's store and the anchors.
        package final class ClientContext: TLSContextOwner, Sendable {
            /// Configured here, then only read.
            private let owned: OpenSSLObject
            package var context: OpaquePointer { owned.pointer }

            package init(anchors: [PEMCertificates.Certificate]) throws(SocketError) {
                guard let context = SSL_CTX_new(TLS_client_method()) else { throw TLSError.last("creating a TLS context") }
                owned = OpenSSLObject(context) { SSL_CTX_free($0) }
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
        }
    #endif
}
