// suite-embedder CONFORMANCE_DIR OUTPUT: writes a Swift source file holding every case file under
// CONFORMANCE_DIR/cases and CONFORMANCE_DIR/requirements.catalog, byte for byte, as string literals, and the catalog
// parsed (AppFlipModel.CatalogForm).
// suite-embedder --source-commit PACKAGE_DIR OUTPUT: writes the commit PACKAGE_DIR's git checkout is at (nil when it
// is not one), read from the repository's files (no git program is run).
// Run by the EmbedSuite build-tool plugin; not a product.
import AppFlipDigest
import AppFlipLoading
import AppFlipModel
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3 || (arguments.count == 4 && arguments[1] == "--source-commit") else {
    FileHandle.standardError.write(
        Data("usage: suite-embedder CONFORMANCE_DIR OUTPUT\n       suite-embedder --source-commit PACKAGE_DIR OUTPUT\n".utf8))
    exit(2)
}

/// `text` as a Swift string literal that evaluates to exactly the same Unicode scalars.
func literal(_ text: String) -> String {
    var result = "\""
    result.reserveCapacity(text.utf8.count + text.utf8.count / 8 + 2)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": result += "\\\\"
        case "\"": result += "\\\""
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        case _
        where scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
            || scalar.properties.generalCategory == .lineSeparator || scalar.properties.generalCategory == .paragraphSeparator:
            result += "\\u{" + String(scalar.value, radix: 16) + "}"
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}

/// Prints `FILE:LINE:1: error: MESSAGE` (as a compiler does, so the build shows it against the file) and exits 1.
func fail(_ file: String, line: Int = 1, _ message: String) -> Never {
    FileHandle.standardError.write(Data("\(file):\(line):1: error: \(message)\n".utf8))
    exit(1)
}

/// The 1-based number of the first line that is not valid UTF-8.
func firstInvalidLine(_ bytes: [UInt8]) -> Int {
    for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
    where String(validating: line, as: UTF8.self) == nil {
        return index + 1
    }
    return 1
}

/// Writes `source` to `output` whole, or fails naming the file.
func write(_ source: String, to output: URL) {
    do {
        try Data(source.utf8).write(to: output, options: .atomic)
    } catch {
        fail(output.path, "cannot write: \(error.localizedDescription)")
    }
}

/// The commit the git checkout at `root` is at: `HEAD` read as a commit id, or the ref it names (loose, in the
/// common directory of a linked worktree, or packed). Nil when `root` is not a checkout or the ref is unborn.
func sourceCommit(of root: URL) -> String? {
    func text(_ url: URL) -> String? {
        (try? String(contentsOf: url, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    func isCommitID(_ value: String) -> Bool {
        (value.count == 40 || value.count == 64) && value.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }
    let dotGit = root.appendingPathComponent(".git")
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: dotGit.path, isDirectory: &isDirectory) else { return nil }
    var gitDirectory = dotGit
    if !isDirectory.boolValue {
        // A linked worktree or a submodule: `.git` is a file naming the directory.
        guard let line = text(dotGit), line.hasPrefix("gitdir:") else { return nil }
        let path = line.dropFirst("gitdir:".count).trimmingCharacters(in: .whitespaces)
        gitDirectory = path.hasPrefix("/") ? URL(fileURLWithPath: path) : root.appendingPathComponent(path)
    }
    let common =
        text(gitDirectory.appendingPathComponent("commondir")).map { path in
            path.hasPrefix("/") ? URL(fileURLWithPath: path) : gitDirectory.appendingPathComponent(path)
        } ?? gitDirectory
    guard let head = text(gitDirectory.appendingPathComponent("HEAD")) else { return nil }
    if isCommitID(head) { return head }
    guard head.hasPrefix("ref:") else { return nil }
    let ref = head.dropFirst("ref:".count).trimmingCharacters(in: .whitespaces)
    guard !ref.contains(".."), ref.hasPrefix("refs/") else { return nil }
    for directory in [gitDirectory, common] {
        if let value = text(directory.appendingPathComponent(ref)), isCommitID(value) { return value }
    }
    for line in (text(common.appendingPathComponent("packed-refs")) ?? "").split(separator: "\n") {
        let fields = line.split(separator: " ", maxSplits: 1)
        if fields.count == 2, fields[1] == ref, isCommitID(String(fields[0])) { return String(fields[0]) }
    }
    return nil
}

if arguments[1] == "--source-commit" {
    let commit = sourceCommit(of: URL(fileURLWithPath: arguments[2]))
    write(
        """
        // Generated by suite-embedder from the package's git checkout while building. Do not edit.

        extension EmbeddedSuiteFiles {
            /// The commit the suite was built from, when it was built from a git checkout (local changes not seen).
            package static let sourceCommit: String? = \(commit.map(literal) ?? "nil")
        }

        """, to: URL(fileURLWithPath: arguments[3]))
    exit(0)
}

let conformance = URL(fileURLWithPath: arguments[1])
let output = URL(fileURLWithPath: arguments[2])

var files: [(path: String, url: URL)] = [("Conformance/requirements.catalog", conformance.appendingPathComponent("requirements.catalog"))]
let cases = conformance.appendingPathComponent("cases")
guard let enumerator = FileManager.default.enumerator(atPath: cases.path) else { fail(cases.path, "cannot list the case files") }
var relativePaths: [String] = []
while let relative = enumerator.nextObject() as? String {
    if relative.hasSuffix(".case") { relativePaths.append(relative) }
}
for relative in relativePaths.sorted() {
    files.append(("Conformance/cases/" + relative, cases.appendingPathComponent(relative)))
}

var literals = ""
var catalogDigest = ""
var catalogForm: String?
var caseFiles: [(relativePath: String, bytes: [UInt8])] = []
for file in files {
    guard let data = FileManager.default.contents(atPath: file.url.path) else { fail(file.url.path, "cannot read the file") }
    let bytes = [UInt8](data)
    guard let text = String(validating: bytes, as: UTF8.self) else {
        fail(file.url.path, line: firstInvalidLine(bytes), "not valid UTF-8; case files and the catalog are UTF-8 text")
    }
    literals += "        (\(literal(file.path)), \(literal(text))),\n"
    if file.path.hasPrefix("Conformance/cases/") {
        caseFiles.append((String(file.path.dropFirst("Conformance/cases/".count)), bytes))
    } else {
        catalogDigest = SHA256.hexDigest(bytes)
        // The catalog as a run loads it, parsed and checked now; a catalog with errors is embedded without a parsed
        // form, so the run parses it and shows the errors as it always did.
        catalogForm = (try? CatalogLoader.load(bytes: bytes, file: file.path)).map(CatalogForm.encode)
    }
}
write(
    """
    // Generated by suite-embedder from Conformance/ while building. Do not edit: change Conformance/ instead.

    extension EmbeddedSuiteFiles {
        /// The suite's files, byte for byte: the requirement catalog, then every case file in path order.
        package static let all: [(path: String, text: String)] = [
    \(literals)    ]

        /// The SHA-256 of the catalog's bytes, taken when the suite was embedded.
        package static let catalogDigest = \(literal(catalogDigest))

        /// The catalog parsed while embedding, in `CatalogForm` (nil when it did not load: the run parses it).
        package static let catalogForm: String? = \(catalogForm.map(literal) ?? "nil")

        /// The case files' digest as a suite records it (`SuiteDigest`, paths relative to Conformance/cases), taken when
        /// the suite was embedded.
        package static let casesDigest = \(literal(SuiteDigest.of(caseFiles)))
    }

    """, to: output)
