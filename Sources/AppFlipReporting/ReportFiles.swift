import AppFlipBase
import AppFlipModel
import AppFlipSystem
import Foundation

/// Writes a run's reports as one unit: every file goes to a temporary file created exclusively (`O_EXCL`,
/// `O_NOFOLLOW`, an unpredictable name) and synced; only when all are written are they renamed into place, under an
/// exclusive lock on the directory, so a full disk leaves the old pair whole and two runs sharing a directory never
/// leave a mixed pair. Any failure removes the temporary files.
package enum ReportFiles {
    package struct Failure: Error, Sendable {
        package var message: String

        package init(message: String) {
            self.message = message
        }
    }

    /// The hidden lock file two runs sharing a directory take turns on.
    package static let lockName = ".appflip-reports.lock"

    /// Why `directory` cannot take the reports, or nil when it can: checked before a run, so a run never ends with
    /// nowhere to write.
    package static func problem(writing directory: String) -> String? {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            return "cannot create the reports directory \(directory): \(error.localizedDescription)"
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            return "\(directory) is not a directory"
        }
        do {
            let probe = try createExclusive(in: directory, name: "probe")
            close(probe.fd)
            unlink(probe.path)
        } catch {
            return "cannot write in \(directory): \(error.message)"
        }
        return nil
    }

    /// Writes every file into `directory`, all or none.
    package static func save(_ files: [(name: String, text: String)], into directory: String) throws(Failure) {
        try save(files.map { ReportFile(name: $0.name, text: $0.text) }, into: directory)
    }

    /// Writes every file into `directory`, all or none, each streamed through a sink as it is produced.
    package static func save(_ files: [ReportFile], into directory: String) throws(Failure) {
        if let problem = problem(writing: directory) { throw Failure(message: problem) }
        let lock = open(directory + "/" + lockName, O_CREAT | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw Failure(message: "cannot open the lock file in \(directory): \(describe(errno))") }
        defer { close(lock) }
        guard flock(lock, LOCK_EX) == 0 else { throw Failure(message: "cannot lock \(directory): \(describe(errno))") }
        defer { flock(lock, LOCK_UN) }
        // Under the lock no other run is writing here: what a killed run left is removed, once its owner is gone.
        removeStaleTemporaries(in: directory, names: files.map(\.name))

        var temporaries: [String] = []
        func discard() { for path in temporaries { unlink(path) } }
        var created: [(fd: Int32, path: String)] = []
        for file in files {
            do {
                let made = try createExclusive(in: directory, name: file.name)
                temporaries.append(made.path)
                created.append(made)
            } catch {
                for made in created { close(made.fd) }
                discard()
                throw error
            }
        }
        // The files are independent: each is produced and written on a thread of its own (the largest, results.json
        // of a long run, no longer waits for the others). The first failure in file order is the one reported.
        let opened = created
        let failures = Concurrently.map(Array(files.indices)) { index -> Failure? in
            do throws(Failure) {
                try stream(files[index], to: opened[index].fd, path: opened[index].path)
                return nil
            } catch {
                return error
            }
        }
        if let failure = failures.lazy.compactMap({ $0 }).first {
            discard()
            throw failure
        }
        for (index, file) in files.enumerated() where rename(temporaries[index], directory + "/" + file.name) != 0 {
            let code = errno
            discard()
            let moved = files.prefix(index).map(\.name)
            throw Failure(
                message: "cannot move \(file.name) into place: \(describe(code))"
                    + (moved.isEmpty ? "" : "; \(moved.joined(separator: ", ")) already replaced"))
        }
        let directoryFD = open(directory, O_RDONLY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
    }

    /// Writes one file whole or not at all (an exclusive temporary file beside it, synced, then renamed).
    package static func save(_ bytes: [UInt8], to path: String) throws(Failure) {
        let directory = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        let created = try createExclusive(in: directory, name: (path as NSString).lastPathComponent)
        do {
            try writeAll(bytes, to: created.fd, path: created.path)
        } catch {
            unlink(created.path)
            throw error
        }
        guard rename(created.path, path) == 0 else {
            let code = errno
            unlink(created.path)
            throw Failure(message: "cannot move \(path) into place: \(describe(code))")
        }
    }

    /// Appends `text` to the file at `path`, creating it: a CI job summary (`$GITHUB_STEP_SUMMARY`) is a file other
    /// steps append to as well, so it is never replaced.
    package static func append(_ text: String, to path: String) throws(Failure) {
        if let problem = FileKind.notRegular(path) { throw Failure(message: "cannot append to \(path): it \(problem)") }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(message: "cannot open \(path) for appending: \(describe(errno))") }
        try writeAll(Array(text.utf8), to: fd, path: path)
    }

    /// Why `path` cannot take an appended summary, or nil when it can (checked before a run).
    package static func problem(appending path: String) -> String? {
        // A FIFO would hold the open until a reader came: refused before it is opened.
        if let problem = FileKind.notRegular(path) { return "cannot append to \(path): it \(problem)" }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return "cannot open \(path) for appending: \(describe(errno))" }
        close(fd)
        return nil
    }

    /// Removes the temporaries `.NAME.PID-RANDOM.tmp` of `names` whose writing process no longer exists (a run killed
    /// outright, or interrupted while it wrote): only one that can be proved dead, never another's in progress (the
    /// caller holds the directory's lock) or one whose owner cannot be told.
    static func removeStaleTemporaries(in directory: String, names: [String]) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for entry in entries where entry.hasSuffix(".tmp") {
            guard let name = names.first(where: { entry.hasPrefix("." + $0 + ".") }) else { continue }
            let middle = entry.dropFirst(name.count + 2).dropLast(4)
            guard let dash = middle.firstIndex(of: "-"), let pid = Int32(middle[..<dash]), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0, errno == ESRCH { unlink(directory + "/" + entry) }
        }
    }

    /// A new file `.NAME.PID-RANDOM.tmp` in `directory`, opened for writing; never an existing file or a symlink. The
    /// writer's pid in the name lets a later run prove a leftover dead (`removeStaleTemporaries`).
    private static func createExclusive(in directory: String, name: String) throws(Failure) -> (fd: Int32, path: String) {
        for _ in 0..<8 {
            let suffix = "\(getpid())-" + String(UInt64.random(in: .min ... .max), radix: 36)
            let path = "\(directory)/.\(name).\(suffix).tmp"
            let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd >= 0 { return (fd, path) }
            if errno != EEXIST { throw Failure(message: "cannot create a file in \(directory): \(describe(errno))") }
        }
        throw Failure(message: "cannot create a temporary file in \(directory): every name tried exists")
    }

    /// Writes a report file through a sink, syncs and closes; a short write (a full disk) is an error.
    private static func stream(_ file: ReportFile, to fd: Int32, path: String) throws(Failure) {
        defer { close(fd) }
        let sink = ReportSink(fd: fd, path: path)
        file.write(sink)
        try sink.finish()
        guard fsync(fd) == 0 else { throw Failure(message: "cannot sync \(path): \(describe(errno))") }
    }

    /// Writes every byte, syncs and closes; a short write (a full disk) is an error.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(Failure) {
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure(message: "cannot write \(path): \(describe(errno))")
            }
            offset += written
        }
        guard fsync(fd) == 0 else { throw Failure(message: "cannot sync \(path): \(describe(errno))") }
    }

    private static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}
