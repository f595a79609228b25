import Foundation

/// What kind of file a path someone names is, before it is read or appended to: a directory, a FIFO or a device given
/// where a file belongs would block a read or swallow a write, so each is refused with what it is.
package enum FileKind {
    /// Why `path` is not a regular file, or nil when it is one or does not exist (its absence is the caller's to say).
    package static func notRegular(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "is a directory, not a file"
        case S_IFIFO: return "is a FIFO (a named pipe), not a regular file: give the file itself"
        case S_IFCHR, S_IFBLK: return "is a device, not a regular file: give the file itself"
        case S_IFSOCK: return "is a socket, not a regular file"
        default: return "is not a regular file"
        }
    }
}
