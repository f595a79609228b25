import AppFlipBase
import AppFlipHTTP
import AppFlipSystem
import AppFlipTLS

#if canImport(COpenSSL)
    import COpenSSL
#endif

/// A client that makes its own TLS contexts with OpenSSL, as an app that does not use the platform's defaults does:
/// trusting the CA file its configuration names (`ca_file`) besides the system's store, and verifying what `policy`
/// says. Two policies are defects a client must not have; one is correct, another way than the reference's.
enum OwnTLS {
    enum Policy: Sendable {
        /// The chain and the host name, against the CA file: correct.
        case full
        /// The chain against the CA file, never the host name.
        case chainOnly
        /// Nothing: any certificate at all.
        case none
    }

    /// The CA file of the last sign-in's configuration.
    static let caFile = Locked<String?>(nil)

    /// Remembers the CA file a sign-in command names.
    static func note(_ command: [String: Any]) {
        guard command["command"] as? String == "sign-in", let configuration = command["configuration"] as? [String: Any] else { return }
        caFile.withLock { $0 = configuration["ca_file"] as? String }
    }

    /// Connections made under `policy`, each from a context made for it.
    static func connector(_ policy: Policy) -> HTTPClient.TLSConnector {
        { socket, host, deadline throws(SocketError) in
            #if canImport(COpenSSL)
                let context = try Context(policy: policy, caFile: caFile.withLock { $0 })
                return try TLSStream.connect(socket, context: context, host: host, checksHostName: policy == .full, deadline: deadline)
            #else
                throw SocketError(.tls, "this build does not speak TLS itself")
            #endif
        }
    }

    #if canImport(COpenSSL)
        final class Context: TLSContextOwner, @unchecked Sendable {
            let context: OpaquePointer

            init(policy: Policy, caFile: String?) throws(SocketError) {
                guard let context = SSL_CTX_new(TLS_client_method()) else { throw SocketError(.tls, "SSL_CTX_new failed") }
                self.context = context
                _ = appflip_SSL_CTX_set_partial_write_modes(context)
                _ = SSL_CTX_set_default_verify_paths(context)
                if let caFile { _ = SSL_CTX_load_verify_locations(context, caFile, nil) }
                ERR_clear_error()
                SSL_CTX_set_verify(context, policy == .none ? SSL_VERIFY_NONE : SSL_VERIFY_PEER, nil)
            }

            deinit { SSL_CTX_free(context) }
        }
    #endif
}
