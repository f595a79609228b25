#if canImport(COpenSSL)
    import COpenSSL
#elseif canImport(CommonCrypto)
    import CommonCrypto
#endif

/// SHA-256 (FIPS 180-4) by the system's cryptography library: OpenSSL's libcrypto on Linux (the library the suite's
/// TLS already links), CommonCrypto on macOS. No digest code of our own: the one written here until issue 40 hashed
/// about 230 MB/s optimized and 11 MB/s unoptimized, so the executable's digest, taken while the cases run (since
/// 69b8bfe), cost a 3,000-case persistent run 65 ms of CPU on the core the loop and its adapter share (most of the
/// loop's regression), and every command run under `swift test` 1.8 s; libcrypto uses the processor's SHA
/// instructions (over 1 GB/s here).
///
/// A value type: a copy hashes on independently (copy on write of the library's context).
package struct SHA256: Sendable {
    private var context = Context()

    package init() {}

    package mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if !isKnownUniquelyReferenced(&context) { context = context.copy() }
        // Contiguous bytes (arrays, Data, a String's UTF-8) in one call; any other sequence through a small buffer.
        if bytes.withContiguousStorageIfAvailable({ context.update(UnsafeRawBufferPointer($0)) }) != nil { return }
        var chunk: [UInt8] = []
        chunk.reserveCapacity(4096)
        for byte in bytes {
            chunk.append(byte)
            if chunk.count == 4096 {
                chunk.withUnsafeBytes { context.update($0) }
                chunk.removeAll(keepingCapacity: true)
            }
        }
        chunk.withUnsafeBytes { context.update($0) }
    }

    /// The 32-byte digest of everything given so far.
    package mutating func finalize() -> [UInt8] {
        if !isKnownUniquelyReferenced(&context) { context = context.copy() }
        return context.finalize()
    }

    /// The digest of `bytes`, handed to `body` where it lies: a short input hashed once (a case's generated values)
    /// with no array made for its digest.
    package static func withDigest<Result>(of bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let context = Context()
        context.update(bytes)
        var digest: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &digest) { digest in
            context.finish(into: digest)
            return body(UnsafeRawBufferPointer(digest))
        }
    }

    package static func hash<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    package static func hexDigest<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        hex(hash(bytes))
    }

    /// A digest in lower-case hexadecimal.
    package static func hex(_ digest: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(digest.count * 2)
        for byte in digest {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

extension SHA256 {
    /// The library's hashing context, owned by one `SHA256` value at a time (copied before a shared one changes).
    /// Unchecked Sendable: the EVP_MD_CTX is owned by one `SHA256` value, copied before a shared one changes.
    private final class Context: @unchecked Sendable {
        #if canImport(COpenSSL)
            private let pointer: OpaquePointer

            /// SHA-256 fetched from the default provider once per process. OpenSSL 3 fetches the legacy `EVP_sha256()`
            /// again at every `EVP_DigestInit_ex` (a provider look-up under a lock: most of what hashing a code's 43 bytes
            /// cost); a fetched one is used as it is.
            private static let algorithm = Algorithm()

            /// Unchecked Sendable: an EVP_MD is immutable once fetched, and OpenSSL lets threads share it.
            private struct Algorithm: @unchecked Sendable {
                let pointer: OpaquePointer?

                init() {
                    // Never freed: it lives as long as the process. Without a provider's SHA-256, the legacy one.
                    pointer = EVP_MD_fetch(nil, "SHA256", nil) ?? EVP_sha256()
                }
            }

            /// Finished, and made ready for a new digest only when it is used again: most contexts are finished once
            /// and freed (a one-shot hash, an HMAC's copied halves).
            private var finished = false

            init() {
                guard let pointer = EVP_MD_CTX_new(), EVP_DigestInit_ex(pointer, Self.algorithm.pointer, nil) == 1 else {
                    fatalError("libcrypto could not start a SHA-256 digest (out of memory, or no SHA-256 in this OpenSSL)")
                }
                self.pointer = pointer
            }

            private init(copying other: Context) {
                guard let pointer = EVP_MD_CTX_new(), EVP_MD_CTX_copy_ex(pointer, other.pointer) == 1 else {
                    fatalError("libcrypto could not copy a SHA-256 digest (out of memory)")
                }
                self.pointer = pointer
                finished = other.finished
            }

            deinit { EVP_MD_CTX_free(pointer) }

            func copy() -> Context { Context(copying: self) }

            private func ready() {
                guard finished else { return }
                guard EVP_DigestInit_ex(pointer, Self.algorithm.pointer, nil) == 1 else { fatalError("libcrypto could not restart a SHA-256 digest") }
                finished = false
            }

            func update(_ bytes: UnsafeRawBufferPointer) {
                guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
                ready()
                guard EVP_DigestUpdate(pointer, base, bytes.count) == 1 else { fatalError("libcrypto refused a SHA-256 update") }
            }

            func finalize() -> [UInt8] {
                var digest = [UInt8](repeating: 0, count: 32)
                digest.withUnsafeMutableBytes { finish(into: $0) }
                return digest
            }

            /// Writes the digest into `digest`'s first 32 bytes.
            func finish(into digest: UnsafeMutableRawBufferPointer) {
                ready()
                var length: UInt32 = 0
                guard digest.count >= 32, let base = digest.baseAddress,
                    EVP_DigestFinal_ex(pointer, base.assumingMemoryBound(to: UInt8.self), &length) == 1, length == 32
                else {
                    fatalError("libcrypto could not finish a SHA-256 digest")
                }
                finished = true
            }
        #elseif canImport(CommonCrypto)
            private var state = CC_SHA256_CTX()

            init() { CC_SHA256_Init(&state) }

            private init(copying other: Context) { state = other.state }

            func copy() -> Context { Context(copying: self) }

            func update(_ bytes: UnsafeRawBufferPointer) {
                guard var base = bytes.baseAddress else { return }
                var remaining = bytes.count
                while remaining > 0 {  // CC_LONG is 32 bits: at most 1 GiB a call
                    let count = min(remaining, 1 << 30)
                    CC_SHA256_Update(&state, base, CC_LONG(count))
                    base += count
                    remaining -= count
                }
            }

            func finalize() -> [UInt8] {
                var digest = [UInt8](repeating: 0, count: 32)
                digest.withUnsafeMutableBytes { finish(into: $0) }
                return digest
            }

            /// Writes the digest into `digest`'s first 32 bytes, and starts a new one.
            func finish(into digest: UnsafeMutableRawBufferPointer) {
                guard digest.count >= 32, let base = digest.baseAddress else { fatalError("a SHA-256 digest needs 32 bytes") }
                CC_SHA256_Final(base.assumingMemoryBound(to: UInt8.self), &state)
                CC_SHA256_Init(&state)
            }
        #endif
    }
}
