import AppFlipBase
import AppFlipChecks
import AppFlipDigest
import AppFlipModel
import AppFlipSyntax
import Foundation

/// Finding case files, naming their groups, and the digest of a suite.
extension CaseLoader {
    /// Loads every `.case` file under `root` (or `root` itself when it is a file).
    /// - Parameters:
    ///   - root: a directory or one case file.
    ///   - groupRoot: the directory that groups are named relative to (normally `Conformance/cases`).
    package static func load(from root: String, groupRoot: String? = nil, catalog: Catalog?) throws(DiagnosticList) -> CaseSuite {
        let files: [String]
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else {
            throw DiagnosticList([Diagnostic(at: SourceLocation(file: root, line: 1, column: 1), "no such file or directory")])
        }
        if isDirectory.boolValue {
            files = caseFiles(under: root)
            if files.isEmpty {
                throw DiagnosticList([
                    Diagnostic(
                        at: SourceLocation(file: root, line: 1, column: 1),
                        "no .\(fileExtension) files under this directory")
                ])
            }
        } else {
            files = [root]
        }
        let base = groupRoot ?? (isDirectory.boolValue ? root : (root as NSString).deletingLastPathComponent)
        var read: [SuiteFile] = []
        var unreadable: [Diagnostic] = []
        for file in files {
            do {
                read.append(SuiteFile(path: file, bytes: try BoundedFile.readSyntaxFile(file, what: "the file")))
            } catch {
                unreadable += error.diagnostics
            }
        }
        return try load(files: read, base: base, catalog: catalog, diagnostics: unreadable)
    }

    /// Loads case files already in memory (the suite built into the binary, or the files of an evidence bundle).
    /// - Parameters:
    ///   - files: the case files, in any order; they are loaded and hashed in path order.
    ///   - base: the directory that groups are named and the digest's paths taken relative to.
    package static func load(
        files: [SuiteFile], base: String, catalog: Catalog?,
        diagnostics: [Diagnostic] = []
    ) throws(DiagnosticList) -> CaseSuite {
        let sorted = files.sorted { $0.path < $1.path }
        var loader = CaseLoader(catalog: catalog)
        let table = Dictionary(sorted.map { ($0.path, $0.bytes) }, uniquingKeysWith: { first, _ in first })
        loader.reader = NodeReader(
            diagnostics: diagnostics,
            lineText: { location in
                table[location.file].map { SourceLines.line(location.line, of: $0) } ?? ""
            })
        var cases: [ConformanceCase] = []
        // Files are read independently (a loader each), a few at once on the machine's cores; their cases and
        // diagnostics are taken in path order, as if read one after another. A few at a time, so that case files
        // past the limit on cases are never all expanded at once.
        let batch = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4))
        var start = 0
        loading: while start < sorted.count {
            let chunk = Array(sorted[start..<min(start + batch, sorted.count)])
            start += chunk.count
            let loaded = Concurrently.map(chunk) { file in
                var own = CaseLoader(catalog: catalog)
                let cases = own.load(bytes: file.bytes, file: file.path, group: group(of: file.path, relativeTo: base))
                return (path: file.path, cases: cases, diagnostics: own.diagnostics)
            }
            for found in loaded {
                loader.reader.diagnostics += found.diagnostics
                cases += found.cases
                if cases.count > maximumCases {
                    loader.reader.error(
                        at: SourceLocation(file: found.path, line: 1, column: 1),
                        "the case files expand into more than \(maximumCases) cases")
                    break loading
                }
            }
        }
        var expansion = 0
        for conformanceCase in cases {
            expansion += conformanceCase.repeatedBytes
            if expansion > ConformanceCase.maximumRunExpansion {
                loader.reader.error(
                    at: conformanceCase.location,
                    "the cases' ${repeat} variables expand to more than "
                        + "\(ConformanceCase.maximumRunExpansion) bytes in all by this case")
                break
            }
        }
        loader.checkUniqueIDs(cases)
        if !loader.reader.diagnostics.isEmpty { throw DiagnosticList(loader.reader.diagnostics) }
        return CaseSuite(cases: cases, sources: sorted, digest: digest(of: sorted, base: base), root: base)
    }

    /// The digest a suite of these files records, without reading a case (`SuiteDigest`, the paths relative to
    /// `base`). What `load` gives the suite it reads; the built-in suite's is taken when the binary is built.
    package static func digest(of files: [SuiteFile], base: String) -> String {
        SuiteDigest.of(files.map { (CaseSuite.relativePath(of: $0.path, to: base), $0.bytes) })
    }

    static func caseFiles(under root: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.hasSuffix("." + fileExtension) {
                files.append(root.hasSuffix("/") ? root + relative : root + "/" + relative)
            }
        }
        return files.sorted()
    }

    static func group(of file: String, relativeTo base: String) -> String {
        let directory = (file as NSString).deletingLastPathComponent
        let standardBase = (base as NSString).standardizingPath
        let standardDirectory = (directory as NSString).standardizingPath
        if standardDirectory == standardBase { return "(root)" }
        if standardDirectory.hasPrefix(standardBase + "/") {
            return String(standardDirectory.dropFirst(standardBase.count + 1))
        }
        return standardDirectory
    }
}
