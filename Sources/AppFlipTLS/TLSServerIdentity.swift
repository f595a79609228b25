import AppFlipSystem

#if canImport(COpenSSL)
    import COpenSSL
#endif

/// What a TLS server presents: a certificate and its key, made by a `CertificateAuthority`, as an OpenSSL server
/// context (TLS 1.2 and up, HTTP/1.1 by ALPN when the client asks).
package final class TLSServerIdentity: TLSContextOwner, Sendable {
    #if canImport(COpenSSL)
        /// Configured here, then only read.
        private let owned: OpenSSLObject
        package var context: OpaquePointer { owned.pointer }

        init(certificate: OpaquePointer, key: OpaquePointer) throws(SocketError) {
            guard let context = SSL_CTX_new(TLS_server_method()) else { throw TLSError.last("creating a TLS server context") }
            owned = OpenSSLObject(context) { SSL_CTX_free($0) }
            _ = appflip_SSL_CTX_set_min_proto_version(context, appflip_TLS1_2_VERSION())
            _ = appflip_SSL_CTX_set_partial_write_modes(context)
            _ = SSL_CTX_set_options(context, UInt64(appflip_SSL_OP_IGNORE_UNEXPECTED_EOF()) | UInt64(appflip_SSL_OP_NO_RENEGOTIATION()))
            guard SSL_CTX_use_certificate(context, certificate) == 1, SSL_CTX_use_PrivateKey(context, key) == 1,
                SSL_CTX_check_private_key(context) == 1
            else {
                throw TLSError.last("loading the server's certificate")
            }
            SSL_CTX_set_alpn_select_cb(
                context,
                { _, selected, selectedLength, offered, offeredLength, _ in
                    // HTTP/1.1 when the client offers it; otherwise no protocol is named (and the handshake goes on).
                    guard let offered else { return SSL_TLSEXT_ERR_NOACK }
                    var index = 0
                    while index < Int(offeredLength) {
                        let length = Int(offered[index])
                        if length == 8, index + 1 + length <= Int(offeredLength),
                            Array(UnsafeBufferPointer(start: offered + index + 1, count: length)) == Array("http/1.1".utf8)
                        {
                            selected?.pointee = offered + index + 1
                            selectedLength?.pointee = UInt8(length)
                            return SSL_TLSEXT_ERR_OK
                        }
                        index += 1 + length
                    }
                    return SSL_TLSEXT_ERR_NOACK
                }, nil)
        }
    #endif
}
