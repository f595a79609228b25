#if canImport(COpenSSL)
    import COpenSSL

    /// One OpenSSL object the suite made and owns (a context, a key, a certificate), freed when the last holder lets
    /// it go. Whoever makes one sets it up before wrapping it up or sharing it; from then on it is only read.
    /// Unchecked Sendable: once set up it is only read, through calls OpenSSL lets threads make on it at once.
    package final class OpenSSLObject: @unchecked Sendable {
        package let pointer: OpaquePointer
        private let free: @Sendable (OpaquePointer) -> Void

        /// Takes ownership of `pointer`; `free` is OpenSSL's call that releases it (`SSL_CTX_free`, `X509_free`…).
        package init(_ pointer: OpaquePointer, free: @escaping @Sendable (OpaquePointer) -> Void) {
            self.pointer = pointer
            self.free = free
        }

        deinit { free(pointer) }
    }
#endif
