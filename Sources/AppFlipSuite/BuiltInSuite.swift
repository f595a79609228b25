import AppFlipDigest
import AppFlipLoading
import AppFlipModel
import AppFlipSuiteFiles
import AppFlipSyntax
import Foundation

/// The suite this build carries: every case file under `Conformance/cases` and `Conformance/requirements.catalog`,
/// compiled in byte for byte when the package is built. The binary needs no files beside it, and a package that
/// depends on the library needs no paths.
package enum BuiltInSuite {
    /// Where the built-in files came from; diagnostics and reports show these paths.
    package static let casesRoot = "Conformance/cases"
    package static let catalogPath = "Conformance/requirements.catalog"
    /// The package's directory where this build was made: where `casesRoot` and `catalogPath` lie on disk, for
    /// source locations that an IDE opens.
    package static let packageDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The built-in case files, in path order.
    package static var caseFiles: [SuiteFile] {
        EmbeddedSuiteFiles.all.filter { $0.path.hasPrefix(casesRoot + "/") }.map { SuiteFile(path: $0.path, bytes: Array($0.text.utf8)) }
    }

    /// The built-in requirement catalog, read once a process (its bytes are compiled in and never change).
    package static func catalog() throws(DiagnosticList) -> Catalog {
        try builtInCatalog.get()
    }

    /// The built-in catalog and the built-in cases validated against it, read once a process: a program (or a test
    /// process) that runs the suite several times parses the files once.
    package static func suite() throws(DiagnosticList) -> (Catalog, CaseSuite) {
        try builtInSuite.get()
    }

    private static let builtInCatalog = Result { () throws(DiagnosticList) -> Catalog in
        guard let file = EmbeddedSuiteFiles.all.first(where: { $0.path == catalogPath }) else {
            throw DiagnosticList([Diagnostic(at: SourceLocation(file: catalogPath, line: 1, column: 1), "this build carries no requirement catalog")])
        }
        let bytes = Array(file.text.utf8)
        // Parsed while building: read back, with the file's bytes, unless the form does not read (then parsed here).
        if let form = EmbeddedSuiteFiles.catalogForm, var catalog = CatalogForm.decode(form) {
            catalog.file = SuiteFile(path: catalogPath, bytes: bytes)
            return catalog
        }
        return try CatalogLoader.load(bytes: bytes, file: catalogPath)
    }

    private static let builtInSuite = Result { () throws(DiagnosticList) -> (Catalog, CaseSuite) in
        let catalog = try builtInCatalog.get()
        return (catalog, try cases(catalog: catalog))
    }

    /// The built-in catalog as parsed while building (`CatalogForm`); nil when it did not load then.
    package static var catalogForm: String? { EmbeddedSuiteFiles.catalogForm }

    /// The SHA-256 of the built-in catalog's bytes, taken when the binary was built: what a run's catalog is compared
    /// with to say whether it is the suite's own.
    package static let catalogDigest: String = EmbeddedSuiteFiles.catalogDigest

    /// The digest of the built-in case files as a run records it (`CaseLoader.digest`), taken when the binary was
    /// built: a run of other cases (`--cases`) compares its own with it, and neither parses nor hashes the built-in ones.
    package static let casesDigest: String = EmbeddedSuiteFiles.casesDigest

    /// The SHA-256 of a catalog as loaded (its file's bytes), or nil for one built in code.
    package static func digest(of catalog: Catalog) -> String? {
        catalog.file.map { SHA256.hexDigest($0.bytes) }
    }

    /// The keys of the built-in catalog's certification programs (`app-flip-ios`, …), for help and usage errors.
    package static var programKeys: [String] { ((try? catalog())?.programs ?? []).map(\.key) }

    /// The built-in cases, validated against `catalog`, with the digest a run records.
    package static func cases(catalog: Catalog?) throws(DiagnosticList) -> CaseSuite {
        try CaseLoader.load(files: caseFiles, base: casesRoot, catalog: catalog)
    }
}
