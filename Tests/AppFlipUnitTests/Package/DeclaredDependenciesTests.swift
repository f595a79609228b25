import AppFlipTestSupport
import Foundation
import Testing

/// Every target's imports are its declared dependencies, as Package.swift says them: a module a target's files
/// import is declared (not reached through another target by chance), and a target it declares is imported (or is an
/// executable it builds to run). Read from Package.swift and the files themselves, so it holds whatever the targets.
@Suite("Declared dependencies")
struct DeclaredDependenciesTests {
    /// One target of Package.swift: its kind, the directory of its files, the targets it depends on.
    struct Target {
        var name: String
        var kind: String
        var path: String
        var dependencies: Set<String>
    }

    /// The targets of a Package.swift manifest: each `.target(`, `.executableTarget(`, `.testTarget(` call read to its
    /// closing parenthesis (a `.target(name:condition:)` inside a dependency list is part of the call it stands in);
    /// its name, its `path:` (or the default directory), every quoted name in `dependencies:`.
    static func targets(in manifest: String) -> [Target] {
        let text = Array(manifest.utf8)
        let kinds = ["target", "executableTarget", "testTarget"]
        var found: [Target] = []
        var from = manifest.startIndex
        while let (kind, opening) = kinds.compactMap({ kind in manifest.range(of: ".\(kind)(", range: from..<manifest.endIndex).map { (kind, $0) } })
            .min(by: { $0.1.lowerBound < $1.1.lowerBound })
        {
            let start = manifest.utf8.distance(from: manifest.startIndex, to: opening.upperBound)
            var depth = 1
            var end = start
            while end < text.count, depth > 0 {
                if text[end] == UInt8(ascii: "(") { depth += 1 }
                if text[end] == UInt8(ascii: ")") { depth -= 1 }
                end += 1
            }
            from = manifest.utf8.index(manifest.startIndex, offsetBy: end)
            let body = String(decoding: text[start..<max(start, end - 1)], as: UTF8.self)
            guard let name = firstQuoted(after: "name:", in: body) else { continue }
            let path = firstQuoted(after: "path:", in: body) ?? (kind == "testTarget" ? "Tests/" : "Sources/") + name
            found.append(Target(name: name, kind: kind, path: path, dependencies: Set(quotedNames(inList: "dependencies:", of: body))))
        }
        return found
    }

    /// The first string literal after `label` in `body`.
    static func firstQuoted(after label: String, in body: String) -> String? {
        guard let labelRange = body.range(of: label) else { return nil }
        let rest = body[labelRange.upperBound...]
        guard let open = rest.firstIndex(of: "\""), let close = rest[rest.index(after: open)...].firstIndex(of: "\"") else { return nil }
        return String(rest[rest.index(after: open)..<close])
    }

    /// Every string literal in the bracketed list after `label` (nested brackets included).
    static func quotedNames(inList label: String, of body: String) -> [String] {
        guard let labelRange = body.range(of: label), let open = body[labelRange.upperBound...].firstIndex(of: "[") else { return [] }
        var depth = 0
        var index = open
        var list = ""
        while index < body.endIndex {
            let character = body[index]
            if character == "[" { depth += 1 }
            if character == "]" { depth -= 1 }
            list.append(character)
            index = body.index(after: index)
            if depth == 0 { break }
        }
        return list.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The modules a Swift file imports (`import X`, `@testable import X`, with an access level or not).
    static func imports(in source: String) -> Set<String> {
        var modules = Set<String>()
        for line in source.split(separator: "\n") {
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            while let first = words.first, first.hasPrefix("@") || ["public", "package", "internal", "private", "fileprivate"].contains(first) {
                words.removeFirst()
            }
            if words.count >= 2, words[0] == "import" { modules.insert(words[1]) }
        }
        return modules
    }

    @Test("Every module a target's files import is declared, and every target it declares is imported or built to run")
    func importsAreDeclared() throws {
        let root = PackageRoot.url.path
        let targets = Self.targets(in: try String(contentsOfFile: root + "/Package.swift", encoding: .utf8))
        #expect(targets.count >= 20, "read \(targets.count) targets from Package.swift")
        let systemLibraries = ["COpenSSL"]
        let byModule = Dictionary(targets.map { ($0.name.replacingOccurrences(of: "-", with: "_"), $0) }, uniquingKeysWith: { first, _ in first })
        var problems: [String] = []
        for target in targets {
            guard let enumerator = FileManager.default.enumerator(atPath: root + "/" + target.path) else { continue }
            var imported = Set<String>()
            while let relative = enumerator.nextObject() as? String {
                guard relative.hasSuffix(".swift") else { continue }
                let source = try String(contentsOfFile: root + "/" + target.path + "/" + relative, encoding: .utf8)
                imported.formUnion(Self.imports(in: source).compactMap { byModule[$0]?.name })
            }
            let undeclared = imported.subtracting(target.dependencies).subtracting([target.name])
            let unused = target.dependencies.filter { name in
                guard let dependency = targets.first(where: { $0.name == name }) else {
                    return !systemLibraries.contains(name) && !imported.contains(name)
                }
                return dependency.kind != "executableTarget" && !imported.contains(name)
            }
            if !undeclared.isEmpty { problems.append("\(target.name) imports \(undeclared.sorted()) without declaring them") }
            if !unused.isEmpty { problems.append("\(target.name) declares \(unused.sorted()) and imports none of them") }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "; "))")
    }

    @Test("The manifest reader finds names, paths and dependencies, nested conditions included")
    func reader() {
        let manifest = """
            .target(name: "A", dependencies: ["B", .target(name: "C", condition: .when(platforms: [.linux]))]),
            .testTarget(name: "T", dependencies: ["A"], path: "Tests/T", exclude: ["Golden"]),
            .executableTarget(name: "x-y"),
            """
        let targets = Self.targets(in: manifest)
        #expect(targets.map(\.name).sorted() == ["A", "T", "x-y"])
        #expect(targets.first { $0.name == "A" }?.dependencies == ["B", "C"])
        #expect(targets.first { $0.name == "T" }?.path == "Tests/T")
        #expect(targets.first { $0.name == "x-y" }?.path == "Sources/x-y")
        #expect(
            Self.imports(in: "import Foundation\n@testable import AppFlipModel\npackage import AppFlipHTTP\n// import Nothing\n")
                == ["Foundation", "AppFlipModel", "AppFlipHTTP"])
    }
}
