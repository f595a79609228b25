/// `--shard I/N`: a deterministic 1/N of the cases, chosen by a hash of each case's ID (FNV-1a), so adding or
/// removing a case never moves the others between shards, and N machines running shards 1/N … N/N together run
/// every case exactly once.
package struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// 1-based.
    package var index: Int
    package var count: Int

    package init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, count <= 1000,
            (1...count).contains(index)
        else { return nil }
        self.index = index
        self.count = count
    }

    package var description: String { "\(index)/\(count)" }

    package func contains(_ id: String) -> Bool {
        Int(Self.hash(id) % UInt64(count)) == index - 1
    }

    /// FNV-1a over the UTF-8 bytes: the same on every platform and in every release.
    static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}
