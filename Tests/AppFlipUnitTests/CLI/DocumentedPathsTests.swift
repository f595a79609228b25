import AppFlipTestSupport
import Foundation
import Testing

/// Every file a document names is one the checkout has: a path under one of the package's folders, a Swift file by
/// its name, a link between the documents. A renamed file then fails here, not in a newcomer's hands.
@Suite("Documented paths")
struct DocumentedPathsTests {
    static let documents = PackageRoot.documents + ["CONTRIBUTING.md", "Conformance/FORMAT.md"]

    /// The folders a path in the documents starts with.
    static let roots = ["Sources", "Tests", "Conformance", "Documentation", "Examples", "Scripts", "Benchmarks", "Plugins", "Fuzz", ".ci"]

    /// Every file name under the checkout's own folders (not `.build`), for names given without their folder.
    static let fileNames: Set<String> = {
        var names = Set<String>()
        for root in roots {
            let enumerator = FileManager.default.enumerator(atPath: PackageRoot.url.appendingPathComponent(root).path)
            while let path = enumerator?.nextObject() as? String { names.insert((path as NSString).lastPathComponent) }
        }
        return names
    }()

    /// The paths `text` names: `Root/…` runs of path characters, without trailing punctuation, skipping patterns.
    static func paths(in text: String) -> [String] {
        let characters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+-./")
        var found: [String] = []
        for root in roots {
            var rest = text[...]
            while let range = rest.range(of: root + "/") {
                defer { rest = rest[range.upperBound...] }
                if range.lowerBound > text.startIndex {
                    let before = text[text.index(before: range.lowerBound)]
                    if characters.contains(before) { continue }
                }
                var path = String(text[range.lowerBound...].prefix { characters.contains($0) })
                while let last = path.last, ".-".contains(last) { path.removeLast() }
                let next = text[range.lowerBound...].dropFirst(path.count).first
                // A pattern (`Sources/*`, `Tests/…`) or a placeholder (`Sources/NAME/`) names no one file.
                if next == "*" || next == "…" || next == "<" || path.contains("NAME") || path.contains("PROFILE") { continue }
                found.append(path)
            }
        }
        return found
    }

    @Test("Every path a document names exists", arguments: documents)
    func paths(_ document: String) throws {
        let text = try PackageRoot.text(document)
        let paths = Self.paths(in: text)
        for path in Set(paths) {
            #expect(FileManager.default.fileExists(atPath: PackageRoot.url.appendingPathComponent(path).path), "\(document) names \(path)")
        }
    }

    @Test("Every Swift file a document names by itself exists somewhere in the package", arguments: documents)
    func swiftFiles(_ document: String) throws {
        let text = try PackageRoot.text(document)
        let words = text.split(whereSeparator: { !($0.isLetter || $0.isNumber || "+._".contains($0)) })
        for word in Set(words) where word.hasSuffix(".swift") && word.first?.isUppercase == true {
            #expect(Self.fileNames.contains(String(word)), "\(document) names \(word)")
        }
    }

    @Test("Every link between documents leads to a file", arguments: documents)
    func links(_ document: String) throws {
        let text = try PackageRoot.text(document)
        let directory = (document as NSString).deletingLastPathComponent
        var rest = text[...]
        while let open = rest.range(of: "](") {
            let target = rest[open.upperBound...].prefix { $0 != ")" && $0 != "#" }
            rest = rest[open.upperBound...]
            guard !target.contains("://"), !target.isEmpty else { continue }
            let path = directory.isEmpty ? String(target) : directory + "/" + target
            #expect(FileManager.default.fileExists(atPath: PackageRoot.url.appendingPathComponent(path).path), "\(document) links to \(target)")
        }
    }

    @Test("The path reader finds paths and skips patterns, so the tests above can fail")
    func reader() {
        let text = "see `Sources/AppFlipCLI/Command.swift`, Documentation/Nope.md. and Tests/*.swift or Sources/NAME/x"
        #expect(Self.paths(in: text) == ["Sources/AppFlipCLI/Command.swift", "Documentation/Nope.md"])
        #expect(!FileManager.default.fileExists(atPath: PackageRoot.url.appendingPathComponent("Documentation/Nope.md").path))
    }
}
