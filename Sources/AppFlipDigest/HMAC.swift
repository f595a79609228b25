/// HMAC-SHA-256 (RFC 2104, FIPS 198-1): a keyed digest, for fingerprints that nobody without the key can recompute.
package enum HMAC {
    /// SHA-256's block size in bytes.
    private static let blockSize = 64

    /// HMAC-SHA-256 of `message` under `key` (any length: a key longer than a block is hashed first).
    package static func sha256<Key: Collection, Message: Collection>(key: Key, message: Message) -> [UInt8]
    where Key.Element == UInt8, Message.Element == UInt8 {
        Self.Key(key).authenticationCode(for: message)
    }

    /// A key with its two padded blocks hashed once: every code under it starts from those states (RFC 2104's
    /// "precomputation" note), so a run that fingerprints thousands of values hashes two blocks fewer for each.
    package struct Key: Sendable {
        private let inner: SHA256
        private let outer: SHA256

        package init<Bytes: Collection>(_ key: Bytes) where Bytes.Element == UInt8 {
            var block = key.count > HMAC.blockSize ? SHA256.hash(key) : Array(key)
            block += repeatElement(0, count: HMAC.blockSize - block.count)
            var inner = SHA256()
            inner.update(block.map { $0 ^ 0x36 })
            var outer = SHA256()
            outer.update(block.map { $0 ^ 0x5c })
            self.inner = inner
            self.outer = outer
        }

        /// HMAC-SHA-256 of `message` under this key. Safe from any thread: each call hashes on copies of the states.
        package func authenticationCode<Message: Collection>(for message: Message) -> [UInt8] where Message.Element == UInt8 {
            var inner = self.inner
            inner.update(message)
            var outer = self.outer
            outer.update(inner.finalize())
            return outer.finalize()
        }
    }
}
