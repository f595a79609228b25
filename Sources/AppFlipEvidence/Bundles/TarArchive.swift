/// A POSIX ustar archive, written and read by our own code (no tool is run): regular files only, each path at most
/// 255 bytes, read back with every header's checksum and bounds checked, so a damaged or hostile archive is an error,
/// never a crash. Only the ustar layout it writes is read (GNU tar and bsdtar extract it alike); any other is refused.
package enum TarArchive {
    package struct Entry: Sendable, Hashable {
        package var path: String
        package var bytes: [UInt8]

        package init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    package struct Failure: Error, Sendable {
        package var message: String
    }

    /// The archive of `entries`, in order, with a fixed time and owner so equal inputs give equal bytes.
    package static func write(_ entries: [Entry], modified: Int = 0) throws(Failure) -> [UInt8] {
        var archive: [UInt8] = []
        for entry in entries {
            archive += try header(for: entry, modified: modified)
            archive += entry.bytes
            archive += [UInt8](repeating: 0, count: (512 - entry.bytes.count % 512) % 512)
        }
        return archive + [UInt8](repeating: 0, count: 1024)
    }

    package static func read(_ archive: [UInt8]) throws(Failure) -> [Entry] {
        var entries: [Entry] = []
        var offset = 0
        while offset + 512 <= archive.count {
            let block = Array(archive[offset..<offset + 512])
            if block.allSatisfy({ $0 == 0 }) {
                // The end: zero blocks to the last byte (two, or a tar record's padding). Anything after them would
                // be read by no one and vouched for by nothing: the bundle is refused rather than verified around it.
                if let stray = archive[offset...].firstIndex(where: { $0 != 0 }) {
                    throw Failure(message: "damaged archive: \(archive.count - stray) bytes after its end, from byte \(stray)")
                }
                guard archive.count - offset >= 1024 else { throw Failure(message: "damaged archive: it ends without its closing blocks") }
                return entries
            }
            guard checksum(block) == octal(block[148..<156]) else { throw Failure(message: "damaged archive: bad header checksum at byte \(offset)") }
            // One layout only, the one written: POSIX ustar (magic "ustar", NUL, version "00"), whose prefix field GNU
            // tar and bsdtar both join to the name. An old-GNU header ("ustar  ") keeps other data there, which GNU
            // tar ignores: it would extract files elsewhere than where they were verified.
            guard block[257..<263].elementsEqual(Array("ustar".utf8) + [0]), block[263..<265].elementsEqual(Array("00".utf8)) else {
                throw Failure(
                    message: "the archive's header at byte \(offset) is not POSIX ustar (another tar laid it out anew): "
                        + "what a tar extracts from it could differ from what would be verified")
            }
            guard let size = octal(block[124..<136]) else { throw Failure(message: "damaged archive: bad size at byte \(offset)") }
            let type = block[156]
            guard type == UInt8(ascii: "0") || type == 0 else {
                throw Failure(message: "the archive holds something other than files at byte \(offset)")
            }
            let name = text(block[0..<100])
            let prefix = text(block[345..<500])
            let path = prefix.isEmpty ? name : prefix + "/" + name
            guard isSafe(path) else { throw Failure(message: "the archive holds an unsafe path: \(path)") }
            let start = offset + 512
            guard size <= archive.count - start else { throw Failure(message: "damaged archive: \(path) is cut short") }
            entries.append(Entry(path: path, bytes: Array(archive[start..<start + size])))
            offset = start + (size + 511) / 512 * 512
        }
        throw Failure(message: "damaged archive: it ends without its closing blocks")
    }

    /// A relative path with no `..`, no empty or `.` component and no leading `/`.
    static func isSafe(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/")
            && path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }

    private static func header(for entry: Entry, modified: Int) throws(Failure) -> [UInt8] {
        guard isSafe(entry.path) else { throw Failure(message: "not a safe path for an archive: \(entry.path)") }
        let path = Array(entry.path.utf8)
        var name = path
        var prefix: [UInt8] = []
        if path.count > 100 {
            // ustar splits a long path at a '/' into a prefix (≤ 155) and a name (≤ 100).
            guard let cut = path.indices.last(where: { path[$0] == UInt8(ascii: "/") && $0 <= 155 && path.count - $0 - 1 <= 100 }) else {
                throw Failure(message: "path too long for an archive: \(entry.path)")
            }
            prefix = Array(path[..<cut])
            name = Array(path[(cut + 1)...])
        }
        var block = [UInt8](repeating: 0, count: 512)
        func put(_ bytes: [UInt8], at start: Int) { for (index, byte) in bytes.enumerated() { block[start + index] = byte } }
        func field(_ value: Int, width: Int) -> [UInt8] {
            let digits = String(value, radix: 8)
            return Array((String(repeating: "0", count: max(0, width - 1 - digits.count)) + digits).utf8) + [0]
        }
        put(name, at: 0)
        put(field(0o644, width: 8), at: 100)
        put(field(0, width: 8), at: 108)
        put(field(0, width: 8), at: 116)
        put(field(entry.bytes.count, width: 12), at: 124)
        put(field(modified, width: 12), at: 136)
        put(Array("        ".utf8), at: 148)
        block[156] = UInt8(ascii: "0")
        put(Array("ustar".utf8) + [0], at: 257)
        put(Array("00".utf8), at: 263)
        put(prefix, at: 345)
        put(field(checksum(block), width: 7) + [UInt8(ascii: " ")], at: 148)
        return block
    }

    /// The header's checksum: every byte summed, the checksum field counted as spaces.
    private static func checksum(_ block: [UInt8]) -> Int {
        block.enumerated().reduce(0) { sum, pair in sum + ((148..<156).contains(pair.offset) ? 32 : Int(pair.element)) }
    }

    private static func octal(_ bytes: ArraySlice<UInt8>) -> Int? {
        let digits = bytes.drop { $0 == UInt8(ascii: " ") }.prefix { $0 != 0 && $0 != UInt8(ascii: " ") }
        guard !digits.isEmpty, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "7")).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 8 + Int($1 - UInt8(ascii: "0")) }
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
