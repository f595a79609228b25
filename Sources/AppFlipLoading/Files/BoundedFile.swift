import AppFlipModel
import AppFlipSyntax
import AppFlipSystem
import Foundation

/// Reads a file someone names (`--config`, `--cases`, a results.json, a bundle, an attachment), never more of it than
/// its bound: the size is asked first (a 1 GB sparse file is refused before a byte of it is read), and a file whose
/// size says nothing (`/proc`, a pipe) is read to the bound plus one byte at most. Documentation/Troubleshooting.md's bounds table lists each
/// input's bound.
package enum BoundedFile {
    /// The parser's bound, and so that of every file in the case-file syntax (configuration, baseline, attestations,
    /// catalog, each case file).
    package static let syntaxFileLimit = Parser.Limits().maximumBytes
    /// A results.json read back (`diff`, `merge`, `--rerun-failed`).
    package static let resultsLimit = 128 << 20
    /// A CA file (`--ca-file`, `ca_file:`): a certificate bundle, the whole system store included, is well under it.
    package static let caFileLimit = 1 << 20
    /// An evidence bundle (`verify`): its reports, case files, catalog and attachments (at most 64 MiB of those).
    package static let bundleLimit = 256 << 20

    package struct Failure: Error, Sendable, Hashable {
        package var path: String
        /// What is wrong, without the path: "cannot be read", "is 1073741824 bytes; the limit is 1048576".
        package var reason: String
        package var message: String { "\(path) \(reason)" }

        package init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    /// The bytes of the file at `path`, or why they cannot be had within `limit` bytes. Only a regular file (a symbolic
    /// link to one included) is opened: opening a FIFO no one writes to would wait for ever, and a directory or a
    /// device has no size worth saying.
    package static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        if let problem = FileKind.notRegular(path) { throw Failure(path: path, reason: problem) }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw Failure(path: path, reason: "cannot be read") }
        defer { try? handle.close() }
        if let size = try? handle.seekToEnd() {
            guard size <= UInt64(limit) else { throw Failure(path: path, reason: "is \(size) bytes; the limit is \(limit)") }
            do {
                try handle.seek(toOffset: 0)
            } catch {
                throw Failure(path: path, reason: "cannot be read")
            }
        }
        var bytes: [UInt8] = []
        while bytes.count <= limit {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: min(1 << 20, limit + 1 - bytes.count))
            } catch {
                throw Failure(path: path, reason: "cannot be read")
            }
            guard let chunk, !chunk.isEmpty else { return bytes }
            bytes += chunk
        }
        throw Failure(path: path, reason: "is more than \(limit) bytes, the limit")
    }
}

extension BoundedFile {
    /// A file in the case-file syntax (`what` names it: "the baseline file"), or a diagnostic at its first line saying
    /// why it cannot be read.
    package static func readSyntaxFile(_ path: String, what: String) throws(DiagnosticList) -> [UInt8] {
        do {
            return try read(path, limit: syntaxFileLimit)
        } catch {
            let why = error.reason == "cannot be read" ? "cannot read \(what)" : "\(what) \(error.reason)"
            throw DiagnosticList([Diagnostic(at: SourceLocation(file: path, line: 1, column: 1), why)])
        }
    }
}
