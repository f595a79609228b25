/// The digest a suite of case files records: SHA-256 over each file's path relative to the suite's root (so it does not
/// depend on where the checkout is), a NUL, and the file's bytes, the files in path order. One definition for the
/// loader, which takes it of any suite at run time, and for the build, which takes it of the built-in suite once
/// (`suite-embedder`), so a run never hashes the built-in cases again.
package enum SuiteDigest {
    package static func of(_ files: [(relativePath: String, bytes: [UInt8])]) -> String {
        var hasher = SHA256()
        for file in files.sorted(by: { $0.relativePath < $1.relativePath }) {
            hasher.update(Array(file.relativePath.utf8) + [0])
            hasher.update(file.bytes)
        }
        return SHA256.hex(hasher.finalize())
    }
}
