import AppFlipDigest
import AppFlipSession
import Foundation
import Testing

/// The digest of an executable or an adapter file, read a MiB a call: the whole file's SHA-256, a bound said as such,
/// an unreadable file said as such.
@Suite("File digests")
struct FileDigestTests {
    @Test("A file of several MiB and a few bytes hashes as its whole contents; past the limit and unreadable are refusals")
    func digests() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("digest-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = (0..<(3 << 20) + 5).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(FileDigest.sha256(atPath: path) == .success(SHA256.hexDigest(bytes)))
        #expect(FileDigest.sha256(atPath: path, limit: bytes.count) == .success(SHA256.hexDigest(bytes)))
        #expect(FileDigest.sha256(atPath: path, limit: bytes.count - 1) == .failure(.larger(than: bytes.count - 1)))
        #expect(FileDigest.sha256(atPath: path + "-missing") == .failure(.unreadable))
        #expect(FileDigest.sha256(atPath: FileManager.default.temporaryDirectory.path) == .failure(.unreadable), "a directory")
        try Data().write(to: URL(fileURLWithPath: path))
        #expect(FileDigest.sha256(atPath: path) == .success("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"))
    }
}
