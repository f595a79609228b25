import AppFlipDigest
import Foundation

/// The SHA-256 of a file (the suite's own executable, an adapter program), read a MiB a system call straight into the
/// digest. Foundation's `FileHandle.read(upToCount:)` read the 15 MB executable in about 5,000 reads of 3 KB, each a
/// wake-up on the thread that hashes while the cases run (issue 40's extra reads).
package enum FileDigest {
    package enum Failure: Error, Equatable {
        case unreadable
        case larger(than: Int)
    }

    /// The hexadecimal digest of the file at `path`, refused once more than `limit` bytes were read.
    package static func sha256(atPath path: String, limit: Int = .max) -> Result<String, Failure> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.unreadable) }
        defer { close(descriptor) }
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 20)
        defer { buffer.deallocate() }
        var hash = SHA256()
        var total = 0
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable)
            }
            if count == 0 { break }
            total += count
            guard total <= limit else { return .failure(.larger(than: limit)) }
            hash.update(UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
        return .success(SHA256.hex(hash.finalize()))
    }
}
