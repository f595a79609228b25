#if canImport(COpenSSL)
    import COpenSSL

    /// Certificates read from PEM text by OpenSSL, kept as DER bytes (an X509 is made for each use and freed after).
    package enum PEMCertificates {
        package struct Certificate: Sendable, Hashable {
            var der: [UInt8]

            /// `body` given the certificate as an X509 that lives for the call.
            func withX509<Result>(_ body: (OpaquePointer) -> Result) -> Result? {
                der.withUnsafeBufferPointer { buffer -> Result? in
                    var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                    guard let certificate = d2i_X509(nil, &cursor, buffer.count) else { return nil }
                    defer { X509_free(certificate) }
                    return body(certificate)
                }
            }
        }

        /// Every `CERTIFICATE` block of `pem`, in order.
        package static func read(_ pem: [UInt8]) -> [Certificate] {
            pem.withUnsafeBytes { buffer -> [Certificate] in
                guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return [] }
                defer { BIO_free(bio) }
                var certificates: [Certificate] = []
                while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
                    defer { X509_free(certificate) }
                    if let der = der(of: certificate) { certificates.append(Certificate(der: der)) }
                }
                ERR_clear_error()  // the end of the text reads as an error
                return certificates
            }
        }

        static func der(of certificate: OpaquePointer) -> [UInt8]? {
            var output: UnsafeMutablePointer<UInt8>?
            let length = i2d_X509(certificate, &output)
            guard length > 0, let output else { return nil }
            defer { appflip_OPENSSL_free(output) }
            return Array(UnsafeBufferPointer(start: output, count: Int(length)))
        }
    }
#endif
