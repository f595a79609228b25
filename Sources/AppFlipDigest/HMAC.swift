/// HMAC-SHA-256 (RFC 2104, FIPS 198-1): a keyed digest, for fingerprints that nobody without the key can recompute.
package enum HMAC {
    /// SHA-256's block size in bytes.
    private static let blockSize = 64

    /// HMAC-SHA-256 of `message` under `key` (any length: a key longer than a block is hashed first).
    package static func sha256<Key: Collection, Message: Collection>(key: Key, message: Message) -> [UInt8]
    where Key.Element == UInt8, Message.Element == UInt8 {
        var block = key.count > blockSize ? SHA256.hash(key) : Array(key)
        block += repeatElement(0, count: blockSize - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(inner.finalize())
        return outer.finalize()
    }
}
