import Foundation

/// Writes a file so that readers see either the old content or the whole new content, never a half-written file.
public enum AtomicFile {
    public static func write(_ text: String, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let temporary = (directory.isEmpty ? "." : directory) + "/.\((path as NSString).lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp"
        try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        if rename(temporary, path) != 0 {
            let code = errno
            try? FileManager.default.removeItem(atPath: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot move report into place at \(path): \(String(cString: strerror(code)))"])
        }
    }
}
